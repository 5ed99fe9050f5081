import type { DbTx } from "@/lib/db/client";

/** False when the workspace has no such active key. */
export async function revokeAgentKey(db: DbTx, workspaceId: string, id: string, at: Date): Promise<boolean> {
  const result = await db.agentKey.updateMany({ where: { id, workspaceId, revokedAt: null }, data: { revokedAt: at } });
  return result.count > 0;
}
