import { Prisma, statementRows, type DbTx } from "@/lib/db/client";
import type { OutboxEventRow } from "@/lib/db/queries/notifications/create-events-once";

export type GateDecisionEntry = { subject: string; decision: "allowed" | "refused" | "warned"; data: Record<string, unknown> };

/** One request's decisions: its workspace, environment and actor, and its refusals' notification events. */
export type GateDecisionRecord = {
  workspaceId: string; environmentId: string; actor: string; entries: readonly GateDecisionEntry[]; events?: readonly Omit<OutboxEventRow, "routedAt">[]; now: Date;
};

/**
 * Decisions into the audit log and the per-environment counters, and their
 * notification events into the outbox, in one statement: a decision is never
 * counted without its event, nor notified without being logged. Several
 * requests' records at once (the webhook writes the reviews that arrived
 * during the write before in one statement).
 */
export async function recordGateDecisions(db: DbTx, records: readonly GateDecisionRecord[]): Promise<void> {
  const entries = records.flatMap((r) => r.entries.map((e) => ({ workspace: r.workspaceId, actor: r.actor, subject: e.subject, data: e.data })));
  if (entries.length === 0) return;
  const events = records.flatMap((r) => (r.events ?? []).map((e) => ({ ...e, workspace: r.workspaceId, at: r.now })));
  // Summed here: one upsert may not touch a counter row twice.
  const counts = new Map<string, { environment: string; decision: string; n: number }>();
  for (const r of records) {
    for (const e of r.entries) {
      const key = `${r.environmentId}:${e.decision}`;
      const c = counts.get(key) ?? counts.set(key, { environment: r.environmentId, decision: e.decision, n: 0 }).get(key)!;
      c.n++;
    }
  }
  const c = [...counts.values()];
  await statementRows(db, Prisma.sql`
    WITH logged AS (
      INSERT INTO audit_log (workspace_id, actor, action, subject, data)
      SELECT e.workspace, e.actor, 'gate.decided', e.subject, e.data
      FROM jsonb_to_recordset(${JSON.stringify(entries)}::jsonb) AS e(workspace uuid, actor text, subject text, data jsonb)
      RETURNING 1),
    notified AS (
      INSERT INTO events (id, workspace_id, type, dedupe_key, payload, created_at)
      SELECT u.id, u.workspace, u.type, u."dedupeKey", u.payload, u.at
      FROM json_to_recordset(${JSON.stringify(events)}::json) AS u(id uuid, workspace uuid, type text, "dedupeKey" text, payload jsonb, at timestamptz)
      ON CONFLICT (workspace_id, dedupe_key) DO NOTHING
      RETURNING 1)
    INSERT INTO gate_decision_counts (environment_id, decision, count)
    SELECT c.environment, c.decision, c.n
    FROM unnest(${c.map((x) => x.environment)}::uuid[], ${c.map((x) => x.decision)}::text[], ${c.map((x) => x.n)}::bigint[]) AS c(environment, decision, n)
    ON CONFLICT (environment_id, decision) DO UPDATE SET count = gate_decision_counts.count + EXCLUDED.count
    RETURNING (SELECT count(*) FROM logged), (SELECT count(*) FROM notified)`);
}
