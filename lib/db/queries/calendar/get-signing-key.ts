import type { DbTx } from "@/lib/db/client";

/** The badge key with this public id (badges and the calendar share it), or null. */
export async function getSigningKey(db: DbTx, keyId: string): Promise<{ workspaceId: string; secret: string } | null> {
  return db.badgeKey.findUnique({ where: { keyId }, select: { workspaceId: true, secret: true } });
}
