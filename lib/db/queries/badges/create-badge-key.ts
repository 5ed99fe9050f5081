import type { DbTx } from "@/lib/db/client";

/** Throws Prisma's P2002 when the workspace has a key already. */
export async function createBadgeKey(db: DbTx, data: { workspaceId: string; keyId: string; secret: string }): Promise<{ keyId: string; secret: string }> {
  return db.badgeKey.create({ data, select: { keyId: true, secret: true } });
}
