import type { DbTx } from "@/lib/db/client";

export async function deleteMembership(db: DbTx, workspaceId: string, userId: string): Promise<void> {
  await db.membership.delete({ where: { workspaceId_userId: { workspaceId, userId } } });
}
