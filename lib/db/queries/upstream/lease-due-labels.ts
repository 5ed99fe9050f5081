// Repositories whose source label is due for a read, never read first, taken
// for a few minutes so that another process's tick does not read them too.
// A leased label is being read, not waiting: waking waiters leaves it alone.
// A host with a check in flight (any process's lease) keeps its labels for a
// later tick: that check's digest resolutions spend the host's pulls first.
import type { Db } from "@/lib/db/client";

const LEASE_MS = 10 * 60_000;

export type DueLabel = { id: string; key: string; host: string; path: string; labelFailures: number };

export async function leaseDueLabels(db: Db, now: Date, limit: number): Promise<DueLabel[]> {
  const leaseUntil = new Date(now.getTime() + LEASE_MS);
  return db.$queryRaw<DueLabel[]>`
    UPDATE upstream_repositories SET label_due_at = ${leaseUntil}, label_waiting_quota = false
    WHERE id IN (
      SELECT id FROM upstream_repositories
      WHERE checked_by = 'server' AND label_needed AND tags_fingerprint IS NOT NULL AND (label_due_at IS NULL OR label_due_at <= ${now})
        AND NOT EXISTS (
          SELECT 1 FROM upstream_repositories c
          WHERE c.host = upstream_repositories.host AND c.checked_by = 'server'
            -- A lease further ahead than a check's can reach was taken by a clock since set back: not a check.
            AND c.leased_until > ${now} AND c.leased_until <= ${leaseUntil})
      ORDER BY label_due_at NULLS FIRST, label_checked_at NULLS FIRST
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED)
    RETURNING id::text AS id, key, host, path, label_failures AS "labelFailures"`;
}
