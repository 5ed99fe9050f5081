// The teams named on services, for the filter menus.
import { workspaceOf, type RequestCtx } from "../context";

export async function listTeams({ ctx }: { ctx: RequestCtx }): Promise<string[]> {
  const workspaceId = workspaceOf(ctx.actor);
  const rows = await ctx.db.service.findMany({ where: { workspaceId, team: { not: null } }, distinct: ["team"], select: { team: true }, orderBy: { team: "asc" } });
  return rows.map((r) => r.team).filter((t): t is string => t !== null);
}
