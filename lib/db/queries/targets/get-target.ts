import type { DbTx } from "@/lib/db/client";

export async function getTarget(db: DbTx, workspaceId: string, name: string) {
  return db.target.findUnique({ where: { workspaceId_name: { workspaceId, name } } });
}
