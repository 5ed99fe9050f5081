import type { DbTx } from "@/lib/db/client";

/** The tags of this repository whose digest is known, with the platform digests stored for it (empty when not read). */
export async function listTagDigests(db: DbTx, repositoryId: string): Promise<{ name: string; digest: string | null; platformDigests: string[] }[]> {
  return db.upstreamTag.findMany({ where: { repositoryId, digest: { not: null } }, select: { name: true, digest: true, platformDigests: true } });
}
