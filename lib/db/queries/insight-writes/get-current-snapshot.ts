import type { Db } from "@/lib/db/client";

/** `pg_current_snapshot()` as text, or null on a standby (no snapshot the primary's writes move). */
export async function getCurrentSnapshot(db: Db): Promise<string | null> {
  const [row] = await db.$queryRaw<{ snapshot: string | null }[]>`
      SELECT CASE WHEN pg_is_in_recovery() THEN NULL ELSE pg_current_snapshot()::text END AS snapshot`;
  return row?.snapshot ?? null;
}
