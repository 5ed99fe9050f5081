import type { DbTx } from "@/lib/db/client";

/** Up to `batch` events created before `before`, routed, with no delivery pending (their deliveries go with them); the number removed. */
export async function deleteOldEvents(db: DbTx, before: Date, batch: number): Promise<number> {
  return db.$executeRaw`
      DELETE FROM events WHERE id IN (
        SELECT e.id FROM events e
        WHERE e.created_at < ${before} AND e.routed_at IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = e.id AND d.state = 'pending')
        LIMIT ${batch})`;
}
