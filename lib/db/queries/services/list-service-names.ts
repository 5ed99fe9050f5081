import type { DbTx } from "@/lib/db/client";

export async function listServiceNames(db: DbTx, workspaceId: string, ids: string[]): Promise<{ id: string; name: string }[]> {
  return db.service.findMany({ where: { workspaceId, id: { in: ids } }, select: { id: true, name: true } });
}
