import type { DbTx } from "@/lib/db/client";

/** The number removed. */
export async function deleteRuns(db: DbTx, ids: readonly bigint[]): Promise<number> {
  return db.$executeRaw`DELETE FROM runs WHERE id = ANY(${ids}::bigint[])`;
}
