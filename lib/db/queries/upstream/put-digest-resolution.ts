import type { DbTx } from "@/lib/db/client";

/** What a running digest resolved to (`tag` null: no match, looked up again at `retryAt`). */
export async function putDigestResolution(db: DbTx, repositoryId: string, digest: string, row: { tag: string | null; resolvedAt: Date; retryAt: Date | null }): Promise<void> {
  await db.digestResolution.upsert({ where: { repositoryId_digest: { repositoryId, digest } }, create: { repositoryId, digest, ...row }, update: row });
}
