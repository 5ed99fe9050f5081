import type { DbTx } from "@/lib/db/client";

/** The whole service row, or null when the workspace has no service of that name. */
export async function getService(db: DbTx, workspaceId: string, name: string) {
  return db.service.findUnique({ where: { workspaceId_name: { workspaceId, name } } });
}
