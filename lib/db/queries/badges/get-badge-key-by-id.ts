import type { DbTx } from "@/lib/db/client";

/** The workspace and secret behind a key id, or null for an unknown one. */
export async function getBadgeKeyById(db: DbTx, keyId: string): Promise<{ workspaceId: string; secret: string } | null> {
  return db.badgeKey.findUnique({ where: { keyId }, select: { workspaceId: true, secret: true } });
}
