import type { DbTx } from "@/lib/db/client";
import { listRunningDigests } from "./list-running-digests";

/**
 * Running digests of the shared, server-checked repository whose lookup waits for the pull budget: how many,
 * and the soonest retry. A digest that stopped running while it waited no longer counts.
 */
export async function getQuotaWaitOf(db: DbTx, key: string): Promise<{ host: string; digests: number; until: Date } | null> {
  const repo = await db.upstreamRepository.findFirst({ where: { key, ownerWorkspaceId: null, checkedBy: "server" }, select: { id: true, host: true } });
  if (!repo) return null;
  const running = (await listRunningDigests(db, key)).map((r) => r.digest ?? r.platform_digest!);
  if (running.length === 0) return null;
  const waiting = await db.digestResolution.aggregate({ where: { repositoryId: repo.id, waitingQuota: true, digest: { in: running } }, _count: true, _min: { retryAt: true } });
  if (waiting._count === 0 || !waiting._min.retryAt) return null;
  return { host: repo.host, digests: waiting._count, until: waiting._min.retryAt };
}
