import type { DbTx } from "@/lib/db/client";

/** Running digests of the shared, server-checked repository whose lookup waits for the pull budget: how many, and the soonest retry. */
export async function getQuotaWaitOf(db: DbTx, key: string): Promise<{ host: string; digests: number; until: Date } | null> {
  const repo = await db.upstreamRepository.findFirst({ where: { key, ownerWorkspaceId: null, checkedBy: "server" }, select: { id: true, host: true } });
  if (!repo) return null;
  const waiting = await db.digestResolution.aggregate({ where: { repositoryId: repo.id, waitingQuota: true }, _count: true, _min: { retryAt: true } });
  if (waiting._count === 0 || !waiting._min.retryAt) return null;
  return { host: repo.host, digests: waiting._count, until: waiting._min.retryAt };
}
