import type { DbTx } from "@/lib/db/client";

/** The cached product, or null when it was never fetched. */
export async function getEolProduct(db: DbTx, name: string) {
  return db.eolProduct.findUnique({ where: { name } });
}
