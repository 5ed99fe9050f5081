import type { DbTx } from "@/lib/db/client";

/** The source label waits for the host's pull budget until `until`. */
export async function markLabelWaiting(db: DbTx, id: string, until: Date): Promise<void> {
  await db.upstreamRepository.update({ where: { id }, data: { labelDueAt: until, labelWaitingQuota: true } });
}
