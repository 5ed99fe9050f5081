import type { DbTx } from "@/lib/db/client";

export async function listTargetNames(db: DbTx, workspaceId: string, ids: string[]): Promise<{ id: string; name: string }[]> {
  return db.target.findMany({ where: { workspaceId, id: { in: ids } }, select: { id: true, name: true } });
}
