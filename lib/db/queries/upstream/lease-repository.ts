import type { DbTx } from "@/lib/db/client";

/** Due at `now` and leased until `leaseUntil`, unless a lease holds it now; true when this took the lease. */
export async function leaseRepository(db: DbTx, id: string, now: Date, leaseUntil: Date): Promise<boolean> {
  const claimed = await db.upstreamRepository.updateMany({
    where: { id, OR: [{ leasedUntil: null }, { leasedUntil: { lt: now } }] },
    data: { dueAt: now, leasedUntil: leaseUntil },
  });
  return claimed.count === 1;
}
