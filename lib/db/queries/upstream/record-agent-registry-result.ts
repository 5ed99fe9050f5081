import type { Prisma } from "@/lib/db/client";

const DAY_MS = 86_400_000;

export type AgentRegistryResult = {
  ref: { key: string; host: string; path: string };
  error: string | null;
  tags: readonly string[];
  digests: readonly { tag: string; digest: string }[];
  resolved: readonly { digest: string; tag: string | null }[];
};

/**
 * What an agent looked up for one repository, kept as the workspace's own repository row: its tags
 * (those gone removed), their digests and resolved moving tags. A failed lookup only records the error.
 * Run inside the caller's transaction.
 */
export async function recordAgentRegistryResult(tx: Prisma.TransactionClient, workspaceId: string, result: AgentRegistryResult, now: Date): Promise<void> {
  const { ref } = result;
  const repo = await tx.upstreamRepository.upsert({
    where: { key_scope: { key: ref.key, scope: workspaceId } },
    // A failed lookup keeps the last good one's time: checkedAt is when what is stored was learned.
    create: { key: ref.key, host: ref.host, path: ref.path, ownerWorkspaceId: workspaceId, scope: workspaceId, checkedBy: "agent", checkedAt: result.error ? null : now, lastError: result.error, dueAt: new Date(now.getTime() + 3_600_000) },
    update: { checkedBy: "agent", ...(result.error ? {} : { checkedAt: now }), lastError: result.error, failures: result.error ? { increment: 1 } : 0 },
    select: { id: true },
  });
  if (result.error) return;
  const digests = new Map(result.digests.map((d) => [d.tag, d.digest]));
  const tags = [...new Set(result.tags)];
  await tx.upstreamTag.deleteMany({ where: { repositoryId: repo.id, name: { notIn: tags } } });
  await tx.upstreamTag.createMany({ data: tags.map((name) => ({ repositoryId: repo.id, name, digest: digests.get(name) ?? null, firstSeenAt: now })), skipDuplicates: true });
  for (const [name, digest] of digests) {
    await tx.upstreamTag.updateMany({ where: { repositoryId: repo.id, name, NOT: { digest } }, data: { digest, digestCheckedAt: now, platformDigests: [] } });
  }
  for (const r of result.resolved) {
    await tx.digestResolution.upsert({
      where: { repositoryId_digest: { repositoryId: repo.id, digest: r.digest } },
      create: { repositoryId: repo.id, digest: r.digest, tag: r.tag, resolvedAt: now, retryAt: r.tag ? null : new Date(now.getTime() + DAY_MS) },
      update: { tag: r.tag, resolvedAt: now, retryAt: r.tag ? null : new Date(now.getTime() + DAY_MS), waitingQuota: false },
    });
  }
}
