import type { Db } from "@/lib/db/client";

/** How many versions are stored for a chart repository. */
export async function countChartVersions(db: Db, repositoryId: string): Promise<number> {
  return db.upstreamTag.count({ where: { repositoryId } });
}

/** A good check: what it learned stays; due again in `dueAt`. The fingerprint only when the versions changed. */
export async function recordChartCheckDone(db: Db, repositoryId: string, at: { checkedAt: Date; dueAt: Date; fingerprint: string | null; durationMs: number }): Promise<void> {
  await db.upstreamRepository.update({
    where: { id: repositoryId },
    data: {
      checkedAt: at.checkedAt, dueAt: at.dueAt, ...(at.fingerprint ? { tagsFingerprint: at.fingerprint } : {}),
      failures: 0, lastError: null, leasedUntil: null, lastDurationMs: at.durationMs,
    },
  });
}

/** A failed check keeps what the last good one learned, and says why in one line. */
export async function recordChartCheckFailed(db: Db, repositoryId: string, at: { failures: number; error: string; dueAt: Date; durationMs: number }): Promise<void> {
  await db.upstreamRepository.update({
    where: { id: repositoryId },
    data: { failures: at.failures, lastError: at.error.slice(0, 1000), leasedUntil: null, dueAt: at.dueAt, lastDurationMs: at.durationMs },
  });
}
