import { AppError } from "@/lib/domain/errors";
import type { Ctx } from "./context";

export async function checkHealth({ ctx }: { ctx: Ctx }): Promise<{ status: "ok"; database: "ok" }> {
  try {
    await ctx.db.$queryRaw`SELECT 1`;
  } catch {
    throw new AppError("unavailable", "The database is not reachable.");
  }
  return { status: "ok", database: "ok" };
}
