import type { DbTx } from "@/lib/db/client";

export async function getMembership(db: DbTx, workspaceId: string, userId: string) {
  return db.membership.findUnique({ where: { workspaceId_userId: { workspaceId, userId } } });
}
