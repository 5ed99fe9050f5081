import type { DbTx } from "@/lib/db/client";

/** The platform digests of a tag's index. */
export async function recordTagPlatformDigests(db: DbTx, repositoryId: string, name: string, platformDigests: string[]): Promise<void> {
  await db.upstreamTag.updateMany({ where: { repositoryId, name }, data: { platformDigests } });
}
