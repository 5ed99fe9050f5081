import type { DbTx } from "@/lib/db/client";

/** Targets an agent reports for (not Compose-in-Git) that have reported at least once. */
export async function listReportingTargets(db: DbTx, workspaceId: string): Promise<{ name: string; lastReportAt: Date | null }[]> {
  return db.target.findMany({ where: { workspaceId, kind: { not: "compose_git" }, lastReportAt: { not: null } }, select: { name: true, lastReportAt: true } });
}
