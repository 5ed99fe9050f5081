import type { DbTx } from "@/lib/db/client";

/**
 * What a running digest resolved to (`tag` null: no match, looked up again at `retryAt`), or that its lookup
 * waits for the host's pull budget (`waitingQuota`, until `retryAt`).
 */
export async function putDigestResolution(
  db: DbTx,
  repositoryId: string,
  digest: string,
  row: { tag: string | null; resolvedAt: Date; retryAt: Date | null; waitingQuota?: boolean },
): Promise<void> {
  const data = { ...row, waitingQuota: row.waitingQuota ?? false };
  await db.digestResolution.upsert({ where: { repositoryId_digest: { repositoryId, digest } }, create: { repositoryId, digest, ...data }, update: data });
}
