import { Prisma, type SqlTx } from "@/lib/db/client";

/** An outbox row; one with `routedAt` set is kept in the log but never routed. */
export type OutboxEventRow = { id: string; type: string; dedupeKey: string; payload: Record<string, unknown>; routedAt: Date | null };

/** Outbox events, skipping any whose dedupe key the workspace has already; the number written. */
export async function createEventsOnce(tx: SqlTx, workspaceId: string, events: readonly OutboxEventRow[], now: Date): Promise<number> {
  // One JSON document, not a jsonb[] parameter: an array literal of thousands of payloads is
  // escaped element by element here and parsed again by PostgreSQL.
  return tx.execute(Prisma.sql`
        INSERT INTO events (id, workspace_id, type, dedupe_key, payload, created_at, routed_at)
        SELECT u.id, ${workspaceId}::uuid, u.type, u."dedupeKey", u.payload, ${now}, u."routedAt"
        FROM json_to_recordset(${JSON.stringify(events)}::json) AS u(id uuid, type text, "dedupeKey" text, payload jsonb, "routedAt" timestamptz)
        ON CONFLICT (workspace_id, dedupe_key) DO NOTHING`);
}
