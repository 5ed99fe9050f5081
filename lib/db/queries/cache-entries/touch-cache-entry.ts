import type { DbTx } from "@/lib/db/client";

/** The stored value is still good as of `fetchedAt`. */
export async function touchCacheEntry(db: DbTx, key: string, fetchedAt: Date): Promise<void> {
  await db.cacheEntry.update({ where: { key }, data: { fetchedAt } });
}
