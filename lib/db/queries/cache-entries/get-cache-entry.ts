import type { DbTx } from "@/lib/db/client";

/** null when nothing is stored under the key. */
export async function getCacheEntry(db: DbTx, key: string) {
  return db.cacheEntry.findUnique({ where: { key } });
}
