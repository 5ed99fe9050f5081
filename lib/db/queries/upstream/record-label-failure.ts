import type { DbTx } from "@/lib/db/client";

/** A source label read that failed: the error is kept (1,000 characters at most), the last good label stays. */
export async function recordLabelFailure(db: DbTx, id: string, failures: number, error: string, dueAt: Date): Promise<void> {
  await db.upstreamRepository.update({ where: { id }, data: { labelFailures: failures, labelError: error.slice(0, 1000), labelDueAt: dueAt, labelWaitingQuota: false } });
}
