import type { DbTx } from "@/lib/db/client";

/** The digest a tag points at, learned at `checkedAt`; platform digests stored for another digest are dropped. */
export async function recordTagDigest(db: DbTx, repositoryId: string, name: string, digest: string, checkedAt: Date): Promise<void> {
  await db.$executeRaw`
    UPDATE upstream_tags SET
      platform_digests = CASE WHEN digest IS DISTINCT FROM ${digest} THEN '{}'::text[] ELSE platform_digests END,
      digest = ${digest}, digest_checked_at = ${checkedAt}
    WHERE repository_id = ${repositoryId}::uuid AND name = ${name}`;
}
