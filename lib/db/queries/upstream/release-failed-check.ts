import type { DbTx } from "@/lib/db/client";

/** A check that threw: the lease ends, the repository is due again at `dueAt`, and the error is kept (1,000 characters at most). */
export async function releaseFailedCheck(db: DbTx, id: string, dueAt: Date, error: string): Promise<void> {
  await db.upstreamRepository.update({ where: { id }, data: { leasedUntil: null, dueAt, lastError: error.slice(0, 1000) } });
}
