import { Prisma, statementRows, type DbTx } from "@/lib/db/client";
import type { OutboxEventRow } from "@/lib/db/queries/notifications/create-events-once";

export type GateDecisionEntry = { subject: string; decision: "allowed" | "refused" | "warned"; data: Record<string, unknown> };

/**
 * Decisions into the audit log and the per-environment counters, and their
 * notification events into the outbox, in one statement: a decision is never
 * counted without its event, nor notified without being logged.
 */
export async function recordGateDecisions(
  db: DbTx, input: { workspaceId: string; environmentId: string; actor: string; entries: readonly GateDecisionEntry[]; events?: readonly Omit<OutboxEventRow, "routedAt">[]; now: Date },
): Promise<void> {
  if (input.entries.length === 0) return;
  const counts = new Map<string, number>();
  for (const e of input.entries) counts.set(e.decision, (counts.get(e.decision) ?? 0) + 1);
  await statementRows(db, Prisma.sql`
    WITH logged AS (
      INSERT INTO audit_log (workspace_id, actor, action, subject, data)
      SELECT ${input.workspaceId}::uuid, ${input.actor}, 'gate.decided', e.subject, e.data
      FROM jsonb_to_recordset(${JSON.stringify(input.entries)}::jsonb) AS e(subject text, data jsonb)
      RETURNING 1),
    notified AS (
      INSERT INTO events (id, workspace_id, type, dedupe_key, payload, created_at)
      SELECT u.id, ${input.workspaceId}::uuid, u.type, u."dedupeKey", u.payload, ${input.now}
      FROM json_to_recordset(${JSON.stringify(input.events ?? [])}::json) AS u(id uuid, type text, "dedupeKey" text, payload jsonb)
      ON CONFLICT (workspace_id, dedupe_key) DO NOTHING
      RETURNING 1)
    INSERT INTO gate_decision_counts (environment_id, decision, count)
    SELECT ${input.environmentId}::uuid, c.decision, c.n
    FROM unnest(${[...counts.keys()]}::text[], ${[...counts.values()]}::bigint[]) AS c(decision, n)
    ON CONFLICT (environment_id, decision) DO UPDATE SET count = gate_decision_counts.count + EXCLUDED.count
    RETURNING (SELECT count(*) FROM logged), (SELECT count(*) FROM notified)`);
}
