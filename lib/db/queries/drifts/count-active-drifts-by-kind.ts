import type { DbTx } from "@/lib/db/client";

/** Active drift records per kind; kinds with none are left out. */
export async function countActiveDriftsByKind(db: DbTx, workspaceId: string) {
  return db.drift.groupBy({ by: ["kind"], where: { workspaceId, active: true }, _count: { _all: true } });
}
