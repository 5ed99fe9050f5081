import type { DbTx } from "@/lib/db/client";

/**
 * Leases until `leaseUntil` up to `limit` server-checked repositories due at `now` (or due after
 * `farAhead`), not leased now (or leased beyond `leaseFromSetBackClock`); rows another worker holds are skipped.
 */
export async function leaseDueRepositories(
  db: DbTx, t: { now: Date; leaseUntil: Date; farAhead: Date; leaseFromSetBackClock: Date }, limit: number,
): Promise<string[]> {
  const { now, leaseUntil, farAhead, leaseFromSetBackClock } = t;
  const rows = await db.$queryRaw<{ id: string }[]>`
    UPDATE upstream_repositories SET leased_until = ${leaseUntil}
    WHERE id IN (
      SELECT id FROM upstream_repositories
      WHERE checked_by = 'server' AND (due_at <= ${now} OR due_at > ${farAhead})
        AND (leased_until IS NULL OR leased_until < ${now} OR leased_until > ${leaseFromSetBackClock})
      ORDER BY due_at
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED)
    RETURNING id::text`;
  return rows.map((r) => r.id);
}
