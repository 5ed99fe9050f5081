import type { DbTx } from "@/lib/db/client";

/** The workspace's key becomes this one, created or replaced. */
export async function replaceBadgeKey(db: DbTx, workspaceId: string, key: { keyId: string; secret: string }, at: Date): Promise<void> {
  await db.badgeKey.upsert({ where: { workspaceId }, create: { workspaceId, ...key, createdAt: at }, update: { ...key, createdAt: at } });
}
