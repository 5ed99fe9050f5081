import { pingDatabase } from "@/lib/db/queries/health/ping-database";
import { AppError } from "@/lib/domain/errors";
import type { RequestCtx } from "../context";

export async function checkHealth({ ctx }: { ctx: RequestCtx }): Promise<{ status: "ok"; database: "ok" }> {
  try {
    await pingDatabase(ctx.db);
  } catch {
    throw new AppError("unavailable", "The database is not reachable.");
  }
  return { status: "ok", database: "ok" };
}
