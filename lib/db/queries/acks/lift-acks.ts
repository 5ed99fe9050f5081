import { Prisma, type SqlTx } from "@/lib/db/client";

/** Acknowledgements a running version has outgrown end at `now` (once). */
export async function liftAcks(tx: SqlTx, ids: readonly string[], now: Date): Promise<number> {
  return tx.execute(Prisma.sql`UPDATE acks SET lifted_at = ${now} WHERE id = ANY(${ids}::uuid[]) AND lifted_at IS NULL`);
}
