import type { DbTx } from "@/lib/db/client";

/** Tags of these repositories first seen in [from, to). */
export async function listTagsFirstSeen(db: DbTx, repositoryIds: string[], from: Date, to: Date): Promise<{ repositoryId: string; name: string; firstSeenAt: Date }[]> {
  return db.upstreamTag.findMany({
    where: { repositoryId: { in: repositoryIds }, firstSeenAt: { gte: from, lt: to } },
    select: { repositoryId: true, name: true, firstSeenAt: true },
  });
}
