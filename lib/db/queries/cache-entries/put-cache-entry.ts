import type { DbTx, Prisma } from "@/lib/db/client";

/** Stores the value under the key, created or replaced; `etag` is left as it is when not given. */
export async function putCacheEntry(db: DbTx, entry: { key: string; value: Prisma.InputJsonValue; etag?: string | null; fetchedAt: Date }): Promise<void> {
  const { key, ...data } = entry;
  await db.cacheEntry.upsert({ where: { key }, create: entry, update: data });
}
