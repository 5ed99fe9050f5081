import type { DbTx } from "@/lib/db/client";

/** The teams named on the workspace's services, in order. */
export async function listTeams(db: DbTx, workspaceId: string): Promise<string[]> {
  const rows = await db.service.findMany({ where: { workspaceId, team: { not: null } }, distinct: ["team"], select: { team: true }, orderBy: { team: "asc" } });
  return rows.map((r) => r.team).filter((t): t is string => t !== null);
}
