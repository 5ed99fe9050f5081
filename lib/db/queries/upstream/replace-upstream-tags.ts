import type { DbTx } from "@/lib/db/client";

/** The repository's tags become `tags`: those gone are deleted, new ones first seen at `firstSeenAt`. Run it in a transaction. */
export async function replaceUpstreamTags(db: DbTx, repositoryId: string, tags: string[], firstSeenAt: Date): Promise<void> {
  await db.upstreamTag.deleteMany({ where: { repositoryId, name: { notIn: tags } } });
  await db.upstreamTag.createMany({ data: tags.map((name) => ({ repositoryId, name, firstSeenAt })), skipDuplicates: true });
}
