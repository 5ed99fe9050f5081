import type { DbTx } from "@/lib/db/client";

/** The digest a tag points at, learned at `checkedAt`. */
export async function recordTagDigest(db: DbTx, repositoryId: string, name: string, digest: string, checkedAt: Date): Promise<void> {
  await db.upstreamTag.updateMany({ where: { repositoryId, name }, data: { digest, digestCheckedAt: checkedAt } });
}
