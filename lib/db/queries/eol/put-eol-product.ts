import type { DbTx, Prisma } from "@/lib/db/client";

/** Stores the product, created or replaced; `movedTo` is left as it is when not given. */
export async function putEolProduct(db: DbTx, p: { name: string; data: Prisma.InputJsonValue; etag: string | null; fetchedAt: Date; movedTo?: string | null }): Promise<void> {
  const { name, ...data } = p;
  await db.eolProduct.upsert({ where: { name }, create: p, update: data });
}
