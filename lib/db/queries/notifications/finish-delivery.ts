import type { DbTx } from "@/lib/db/client";

/** The delivery under the lease it was taken with: a lease since taken by another worker is left alone. */
type Held = { id: string; leased_until: Date };

export async function markDeliverySent(db: DbTx, d: Held, at: Date, warning: string | null): Promise<void> {
  await db.$executeRaw`
      UPDATE deliveries SET state = 'sent', sent_at = ${at}, leased_until = NULL, last_error = ${warning}
      WHERE id = ${d.id}::uuid AND state = 'pending' AND leased_until = ${d.leased_until}`;
}

export async function markDeliveryRetry(db: DbTx, d: Held, nextAttemptAt: Date, error: string): Promise<void> {
  await db.$executeRaw`
      UPDATE deliveries SET next_attempt_at = ${nextAttemptAt}, leased_until = NULL, last_error = ${error}
      WHERE id = ${d.id}::uuid AND state = 'pending' AND leased_until = ${d.leased_until}`;
}

export async function markDeliveryFailed(db: DbTx, d: Held, error: string): Promise<void> {
  await db.$executeRaw`
    UPDATE deliveries SET state = 'failed', leased_until = NULL, last_error = ${error}
    WHERE id = ${d.id}::uuid AND state = 'pending' AND leased_until = ${d.leased_until}`;
}
