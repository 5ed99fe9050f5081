import type { Db } from "@/lib/db/client";
import type { PurlIdentifier } from "@/lib/domain/eol";

export const PURLS_CACHE_KEY = "eol:purls";

/** endoflife.date's package URLs, as last cached. */
export async function listPurls(db: Db): Promise<PurlIdentifier[]> {
  const entry = await db.cacheEntry.findUnique({ where: { key: PURLS_CACHE_KEY } });
  return Array.isArray(entry?.value) ? (entry.value as PurlIdentifier[]) : [];
}
