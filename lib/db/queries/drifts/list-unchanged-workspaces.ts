import type { Db } from "@/lib/db/client";

/**
 * Of `workspaceIds`, those whose marker says an evaluation at `now` under `rules` would leave them as they are
 * (lib/services/drift/evaluation-marker.ts): no marker older than `oldest`. One statement.
 */
export async function listUnchangedWorkspaces(db: Db, workspaceIds: readonly string[], opts: { rules: string; now: Date; oldest: Date }): Promise<Set<string>> {
  if (workspaceIds.length === 0) return new Set();
  const oldest = opts.oldest;
  const rows = await db.$queryRaw<{ workspace_id: string }[]>`
    SELECT m.workspace_id::text
    FROM drift_evaluations m, LATERAL (SELECT pg_snapshot_xmin(m.snapshot::pg_snapshot)::text::bigint AS xmin) s
    WHERE m.workspace_id = ANY(${workspaceIds}::uuid[])
      AND m.rules = ${opts.rules}
      AND m.evaluated_at <= ${opts.now} AND m.evaluated_at > ${oldest}
      AND (m.next_clock_at IS NULL OR m.next_clock_at > ${opts.now})
      AND (SELECT p.through_xid FROM insight_writes_pruned p) < s.xmin
      AND NOT EXISTS (
        SELECT 1 FROM insight_writes w
        WHERE w.xid >= s.xmin AND w.xid <> m.xid AND w.drift
          AND NOT pg_visible_in_snapshot(w.xid::text::xid8, m.snapshot::pg_snapshot)
      )`;
  return new Set(rows.map((r) => r.workspace_id));
}
