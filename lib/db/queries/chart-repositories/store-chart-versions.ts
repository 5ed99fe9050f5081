import type { Db } from "@/lib/db/client";

/**
 * Replace a chart repository's stored versions (as `upstream_tags`) with `versions`; a new one is
 * first seen at its publication time where the repository gives one (never later than `now`).
 */
export async function storeChartVersions(db: Db, repositoryId: string, versions: readonly { name: string; created: Date | null }[], now: Date): Promise<void> {
  const names = versions.map((v) => v.name);
  await db.$transaction(
    async (tx) => {
      await tx.upstreamTag.deleteMany({ where: { repositoryId, name: { notIn: names } } });
      await tx.upstreamTag.createMany({
        data: versions.map((v) => ({ repositoryId, name: v.name, firstSeenAt: v.created && v.created < now ? v.created : now })),
        skipDuplicates: true,
      });
    },
    { maxWait: 15_000, timeout: 30_000 },
  );
}
