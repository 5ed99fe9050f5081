import type { Db } from "@/lib/db/client";

/** Drops noted writes older than `keptMs` and records the newest transaction dropped; the number dropped. */
export async function pruneInsightWrites(db: Db, keptMs: number): Promise<number> {
  const [row] = await db.$queryRaw<{ pruned: bigint | number }[]>`
    WITH old AS (
      DELETE FROM insight_writes WHERE at < now() - make_interval(secs => ${keptMs / 1000}) RETURNING xid
    ), bumped AS (
      UPDATE insight_writes_pruned SET through_xid = greatest(through_xid, (SELECT max(xid) FROM old))
      WHERE EXISTS (SELECT 1 FROM old) RETURNING 1
    )
    SELECT (SELECT count(*) FROM old) AS pruned`;
  return Number(row?.pruned ?? 0);
}
