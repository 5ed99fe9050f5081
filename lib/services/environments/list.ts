// Environments in pipeline order (position): the order env drift, promotions
// and lead times follow.
import { listEnvironments as readEnvironments } from "@/lib/db/queries/environments/list-environments";
import { workspaceOf, type RequestCtx } from "../context";
import { toEnvironmentOut, type EnvironmentOut } from "./to-out";

export async function listEnvironments({ ctx }: { ctx: RequestCtx }): Promise<{ items: EnvironmentOut[] }> {
  const rows = await readEnvironments(ctx.db, workspaceOf(ctx.actor));
  return { items: rows.map(toEnvironmentOut) };
}
