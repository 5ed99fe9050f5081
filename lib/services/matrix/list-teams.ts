// Small reads for the matrix page: the teams named on services (filter
// menus) and how many environments there are (how many rows fit a page).
import { workspaceOf, type RequestCtx } from "../context";

export async function listTeams({ ctx }: { ctx: RequestCtx }): Promise<string[]> {
  const workspaceId = workspaceOf(ctx.actor);
  const rows = await ctx.db.service.findMany({ where: { workspaceId, team: { not: null } }, distinct: ["team"], select: { team: true }, orderBy: { team: "asc" } });
  return rows.map((r) => r.team).filter((t): t is string => t !== null);
}

export async function countEnvironments({ ctx }: { ctx: RequestCtx }): Promise<number> {
  return ctx.db.environment.count({ where: { workspaceId: workspaceOf(ctx.actor) } });
}
