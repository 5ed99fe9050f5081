// Lookups and label reads waiting for a host's pull budget wake when the
// budget allows them sooner than they were told (a sign-in, a mirror, pulls
// leaving the window early): never later than `resolveAt` / `labelAt`.
import type { Db } from "@/lib/db/client";

export async function wakeQuotaWaiters(db: Db, input: { host: string; resolveAt: Date; labelAt: Date }): Promise<{ digests: number; labels: number }> {
  const { host, resolveAt, labelAt } = input;
  const digests = await db.$executeRaw`
    UPDATE digest_resolutions d SET retry_at = ${resolveAt}
    FROM upstream_repositories r
    WHERE d.repository_id = r.id AND r.host = ${host} AND d.waiting_quota AND d.retry_at > ${resolveAt}`;
  if (digests > 0) {
    await db.$executeRaw`
      UPDATE upstream_repositories r SET due_at = ${resolveAt}
      WHERE r.host = ${host} AND r.due_at > ${resolveAt} AND (r.leased_until IS NULL OR r.leased_until < ${resolveAt})
        AND EXISTS (SELECT 1 FROM digest_resolutions d WHERE d.repository_id = r.id AND d.waiting_quota)`;
  }
  const labels = await db.$executeRaw`
    UPDATE upstream_repositories SET label_due_at = ${labelAt}
    WHERE host = ${host} AND label_waiting_quota AND label_due_at > ${labelAt}`;
  return { digests, labels };
}
