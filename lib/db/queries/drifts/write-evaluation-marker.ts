import { Prisma, type SqlTx } from "@/lib/db/client";

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
