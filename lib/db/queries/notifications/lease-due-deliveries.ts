import type { Db } from "@/lib/db/client";

export type LeasedDelivery = { id: string; event_id: string; rule_id: string; attempts: number; created_at: Date; leased_until: Date };

/**
 * Pending deliveries due at `now` (or whose due time or lease a clock since set back left far ahead: see
 * the caller), up to `limit`, leased until `until`; e-mail ones only with `hasSmtp`.
 */
export async function leaseDueDeliveries(
  db: Db, at: { now: Date; until: Date; farAhead: Date; fromSetBackClock: Date }, opts: { hasSmtp: boolean; workspaceId: string | null; limit: number },
): Promise<LeasedDelivery[]> {
  const { now, until, farAhead, fromSetBackClock } = at;
  const { hasSmtp, workspaceId } = opts;
  return db.$queryRaw<LeasedDelivery[]>`
    UPDATE deliveries d SET leased_until = ${until}, attempts = d.attempts + 1
    WHERE d.id IN (
      SELECT x.id FROM deliveries x
      JOIN notification_rules r ON r.id = x.rule_id
      WHERE x.state = 'pending' AND (x.next_attempt_at <= ${now} OR x.next_attempt_at > ${farAhead})
        AND (x.leased_until IS NULL OR x.leased_until <= ${now} OR x.leased_until > ${fromSetBackClock})
        AND (r.channel <> 'email' OR ${hasSmtp})
        AND (${workspaceId}::uuid IS NULL OR r.workspace_id = ${workspaceId}::uuid)
      ORDER BY x.next_attempt_at, x.id
      LIMIT ${opts.limit}
      FOR UPDATE OF x SKIP LOCKED)
    RETURNING d.id::text, d.event_id::text, d.rule_id::text, d.attempts, d.created_at, d.leased_until`;
}
