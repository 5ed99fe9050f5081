// Environments in pipeline order (position): the order env drift, promotions
// and lead times follow.
import { workspaceOf, type RequestCtx } from "../context";
import { toEnvironmentOut, type EnvironmentOut } from "./to-out";

export async function listEnvironments({ ctx }: { ctx: RequestCtx }): Promise<{ items: EnvironmentOut[] }> {
  const workspaceId = workspaceOf(ctx.actor);
  const rows = await ctx.db.environment.findMany({
    where: { workspaceId },
    orderBy: [{ position: "asc" }, { name: "asc" }],
    include: { _count: { select: { targets: true } } },
  });
  return { items: rows.map(toEnvironmentOut) };
}
