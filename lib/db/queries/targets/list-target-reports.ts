import type { DbTx } from "@/lib/db/client";

export type TargetReport = { id: string; name: string; kind: string; environment: string; lastReportAt: Date | null };

/** Every target of the workspace with when its last report was accepted (quiet targets). */
export async function listTargetReports(db: DbTx, workspaceId: string): Promise<TargetReport[]> {
  const rows = await db.target.findMany({
    where: { workspaceId },
    select: { id: true, name: true, kind: true, lastReportAt: true, environment: { select: { name: true } } },
    orderBy: { name: "asc" },
  });
  return rows.map(({ environment, ...t }) => ({ ...t, environment: environment.name }));
}
