import type { DbTx } from "@/lib/db/client";

/** A workspace's active drift records, with what the matrix cells show of them. */
export async function listActiveDriftCells(db: DbTx, workspaceId: string) {
  return db.drift.findMany({
    where: { workspaceId, active: true },
    select: { serviceId: true, environmentId: true, kind: true, state: true, openedAt: true, announcedAt: true, running: true, expected: true },
  });
}
