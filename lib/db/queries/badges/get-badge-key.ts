import type { DbTx } from "@/lib/db/client";

/** null when the workspace has no badge key yet. */
export async function getBadgeKey(db: DbTx, workspaceId: string): Promise<{ keyId: string; secret: string } | null> {
  return db.badgeKey.findUnique({ where: { workspaceId }, select: { keyId: true, secret: true } });
}
