import type { DbTx } from "@/lib/db/client";

/**
 * A check that listed the tags: the lease ends and failures reset. `tagsFingerprint` and `labelNeeded` are
 * written only when given (a write of the fingerprint counts as new data for drift).
 */
export async function recordCheckSuccess(
  db: DbTx, id: string, at: { checkedAt: Date; dueAt: Date; tagsFingerprint?: string; labelNeeded?: boolean; durationMs: number },
): Promise<void> {
  await db.upstreamRepository.update({
    where: { id },
    data: {
      checkedAt: at.checkedAt, dueAt: at.dueAt, ...(at.tagsFingerprint !== undefined ? { tagsFingerprint: at.tagsFingerprint } : {}), failures: 0, lastError: null, leasedUntil: null,
      ...(at.labelNeeded !== undefined ? { labelNeeded: at.labelNeeded } : {}),
      lastDurationMs: at.durationMs,
    },
  });
}
