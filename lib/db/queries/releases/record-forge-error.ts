import type { DbTx } from "@/lib/db/client";

/** A fetch that failed at `fetchedAt`: the error is kept (1,000 characters at most), the stored releases stay. */
export async function recordForgeError(db: DbTx, id: string, fetchedAt: Date, error: string): Promise<void> {
  await db.forgeRepository.update({ where: { id }, data: { lastError: error.slice(0, 1000), fetchedAt } });
}
