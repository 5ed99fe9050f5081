import type { DbTx } from "@/lib/db/client";

/** A check whose tag listing failed: the lease ends, the error is kept (1,000 characters at most); checkedAt and the tags stay. */
export async function recordCheckFailure(db: DbTx, id: string, at: { failures: number; error: string; dueAt: Date; durationMs: number }): Promise<void> {
  await db.upstreamRepository.update({
    where: { id },
    data: { failures: at.failures, lastError: at.error.slice(0, 1000), leasedUntil: null, dueAt: at.dueAt, lastDurationMs: at.durationMs },
  });
}
