import type { DbTx } from "@/lib/db/client";

/** A repository the server may not read: the workspace's agents check it from now on; unchecked until they report. */
export async function handRepositoryToAgents(db: DbTx, id: string, reason: string, dueAt: Date): Promise<void> {
  await db.upstreamRepository.update({
    where: { id },
    data: { checkedBy: "agent", checkedAt: null, lastError: reason, leasedUntil: null, dueAt },
  });
}
