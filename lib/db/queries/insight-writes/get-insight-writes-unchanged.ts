import type { Db } from "@/lib/db/client";

/**
 * True when no noted insight write finished between the two snapshots (`label` older than `mine`),
 * and the notes still reach back to `label`.
 */
export async function getInsightWritesUnchanged(db: Db, label: { xmin: bigint; text: string }, mine: { text: string }): Promise<boolean> {
  const [row] = await db.$queryRaw<{ unchanged: boolean | null }[]>`
      SELECT (SELECT p.through_xid < ${label.xmin} FROM insight_writes_pruned p) AND NOT EXISTS (
        SELECT 1 FROM insight_writes w
        WHERE w.xid >= ${label.xmin}
          AND pg_visible_in_snapshot(w.xid::text::xid8, ${mine.text}::pg_snapshot)
          AND NOT pg_visible_in_snapshot(w.xid::text::xid8, ${label.text}::pg_snapshot)
      ) AS unchanged`;
  return row?.unchanged === true;
}
