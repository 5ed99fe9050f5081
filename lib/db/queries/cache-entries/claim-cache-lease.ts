import type { DbTx } from "@/lib/db/client";

/**
 * A lease kept as a `cache_entries` row whose `fetched_at` is when it runs out: taken (until `until`)
 * when free at `now`, or held beyond `fromSetBackClock` (taken by a clock since set back). True when taken.
 */
export async function claimCacheLease(db: DbTx, key: string, t: { now: Date; until: Date; fromSetBackClock: Date }): Promise<boolean> {
  const { now, until, fromSetBackClock } = t;
  const rows = await db.$queryRaw<{ key: string }[]>`
    INSERT INTO cache_entries (key, value, fetched_at) VALUES (${key}, '{}'::jsonb, ${until})
    ON CONFLICT (key) DO UPDATE SET fetched_at = EXCLUDED.fetched_at
      WHERE cache_entries.fetched_at <= ${now} OR cache_entries.fetched_at > ${fromSetBackClock}
    RETURNING key`;
  return rows.length === 1;
}

/** Ends a lease taken until `lease`, unless someone else has taken it since. */
export async function endCacheLease(db: DbTx, key: string, lease: Date, now: Date): Promise<number> {
  return db.$executeRaw`UPDATE cache_entries SET fetched_at = ${now} WHERE key = ${key} AND fetched_at = ${lease}`;
}
