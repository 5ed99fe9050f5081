import type { DbTx } from "@/lib/db/client";

export type NewRelease = { tag: string; name: string | null; url: string; prerelease: boolean; publishedAt: Date | null };

/** The forge repository's releases become `releases`; run it in the transaction that records the fetch. */
export async function replaceReleases(db: DbTx, forgeRepositoryId: string, releases: readonly NewRelease[]): Promise<void> {
  await db.release.deleteMany({ where: { forgeRepositoryId } });
  await db.release.createMany({
    data: releases.map((r) => ({ forgeRepositoryId, tag: r.tag, name: r.name, url: r.url, prerelease: r.prerelease, publishedAt: r.publishedAt })),
    skipDuplicates: true,
  });
}
