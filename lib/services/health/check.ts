import { AppError } from "@/lib/domain/errors";
import type { RequestCtx } from "../context";

export async function checkHealth({ ctx }: { ctx: RequestCtx }): Promise<{ status: "ok"; database: "ok" }> {
  try {
    await ctx.db.$queryRaw`SELECT 1`;
  } catch {
    throw new AppError("unavailable", "The database is not reachable.");
  }
  return { status: "ok", database: "ok" };
}
