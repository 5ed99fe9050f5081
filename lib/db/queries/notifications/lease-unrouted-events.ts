import type { DbTx } from "@/lib/db/client";

/** Up to `limit` events not routed yet, oldest first, locked for this transaction (other workers skip them). */
export async function leaseUnroutedEvents(tx: DbTx, limit: number): Promise<{ id: string; workspace_id: string; payload: unknown }[]> {
  return tx.$queryRaw<{ id: string; workspace_id: string; payload: unknown }[]>`
      SELECT id::text, workspace_id::text, payload FROM events
      WHERE routed_at IS NULL
      ORDER BY created_at, id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED`;
}
