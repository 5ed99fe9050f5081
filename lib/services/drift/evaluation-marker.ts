// Each scheduler evaluates every workspace each minute, and several processes
// run a scheduler. Most minutes nothing an evaluation reads has changed, and
// the clock changes nothing either: the evaluation would find what the last
// one left. Each evaluation therefore leaves a marker (drift_evaluations): the
// transaction snapshot it read from, its own transaction, the rules it ran and
// the next instant the clock changes its outcome (nextClockChange). The tick
// skips a workspace while
// - no transaction that wrote what drift reads finished after that snapshot,
//   but the evaluation's own (insight_writes: the triggers that note what
//   insights show note all of it; `drift` is false for a transaction that
//   wrote only what drift does not read, such as a repository's last check);
// - that instant has not come;
// - the rules are the same (DRIFT_RULES, end-of-life data on or off);
// - the marker is under MARKER_MAX_AGE_MS old, so what no trigger notes (the
//   end-of-life product list, a clock set back) is made good within minutes.
// Report intake's own evaluations never skip: they follow a change.
import type { Config } from "@/lib/config";
import { Prisma, type Db, type SqlTx } from "@/lib/db/client";
import { INSIGHT_WRITES_KEPT_MS } from "../cache/insights-cache";

/** Bump when detection or lifecycle rules change what an evaluation of the same data finds. */
export const DRIFT_RULES = "1";

/** Half the time insight_writes are kept, as for cached insights: the notes reach back past it. */
export const MARKER_MAX_AGE_MS = INSIGHT_WRITES_KEPT_MS / 2;

export function rulesOf(config: Pick<Config, "eolEnabled">): string {
  return `${DRIFT_RULES};eol=${config.eolEnabled ? 1 : 0}`;
}

/** The snapshot to label an evaluation with: read under the workspace's lock, before anything else. */
export async function readEvaluationSnapshot(tx: SqlTx): Promise<string> {
  const [row] = await tx.rows<{ snapshot: string }>(Prisma.sql`SELECT pg_current_snapshot()::text AS snapshot`);
  return row!.snapshot;
}

/** Records the evaluation, in its own transaction (whose id it notes). */
export async function writeEvaluationMarker(
  tx: SqlTx,
  m: { workspaceId: string; snapshot: string; rules: string; nextClockAt: Date | null; evaluatedAt: Date },
): Promise<void> {
  await tx.execute(Prisma.sql`
    INSERT INTO drift_evaluations (workspace_id, snapshot, xid, rules, next_clock_at, evaluated_at)
    VALUES (${m.workspaceId}::uuid, ${m.snapshot}, pg_current_xact_id()::text::bigint, ${m.rules}, ${m.nextClockAt}, ${m.evaluatedAt})
    ON CONFLICT (workspace_id) DO UPDATE SET snapshot = excluded.snapshot, xid = excluded.xid, rules = excluded.rules,
      next_clock_at = excluded.next_clock_at, evaluated_at = excluded.evaluated_at`);
}

/** Of `workspaceIds`, those an evaluation at `now` under `rules` would leave as they are (see above). One statement. */
export async function listUnchangedWorkspaces(db: Db, workspaceIds: readonly string[], opts: { rules: string; now: Date }): Promise<Set<string>> {
  if (workspaceIds.length === 0) return new Set();
  const oldest = new Date(opts.now.getTime() - MARKER_MAX_AGE_MS);
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
