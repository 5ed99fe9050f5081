import type { DbTx } from "@/lib/db/client";

/** The cached product is still good as of `fetchedAt`. */
export async function touchEolProduct(db: DbTx, name: string, fetchedAt: Date, movedTo: string | null): Promise<void> {
  await db.eolProduct.update({ where: { name }, data: { fetchedAt, movedTo } });
}
