import type { DbTx } from "@/lib/db/client";

/** False when the workspace has no such active token. */
export async function revokeApiToken(db: DbTx, workspaceId: string, id: string, at: Date): Promise<boolean> {
  const result = await db.apiToken.updateMany({ where: { id, workspaceId, revokedAt: null }, data: { revokedAt: at } });
  return result.count > 0;
}
