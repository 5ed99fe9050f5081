import { Prisma, statementRows, type DbTx } from "@/lib/db/client";

/** Gate decisions so far per environment and decision (`driftwatch_gate_decisions_total`). */
export async function listGateDecisionCounts(db: DbTx, workspaceId: string): Promise<{ environment: string; decision: string; count: number }[]> {
  const rows = await statementRows<{ environment: string; decision: string; count: string }>(db, Prisma.sql`
    SELECT e.name AS environment, c.decision, c.count::text AS count
    FROM gate_decision_counts c JOIN environments e ON e.id = c.environment_id
    WHERE e.workspace_id = ${workspaceId}::uuid ORDER BY e.position, e.name, c.decision`);
  return rows.map((r) => ({ environment: r.environment, decision: r.decision, count: Number(r.count) }));
}
