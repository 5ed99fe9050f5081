import type { DbTx } from "@/lib/db/client";

/** A source label read (or nothing to read it from) at `checkedAt`: next read at `dueAt`. `sourceLabel` undefined keeps the stored one. */
export async function recordLabelRead(db: DbTx, id: string, checkedAt: Date, dueAt: Date, sourceLabel?: string | null): Promise<void> {
  await db.upstreamRepository.update({
    where: { id },
    data: { sourceLabel, labelCheckedAt: checkedAt, labelDueAt: dueAt, labelFailures: 0, labelError: null, labelWaitingQuota: false },
  });
}
