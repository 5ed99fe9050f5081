import type { DbTx } from "@/lib/db/client";

/** The tags of this repository whose digest is known. */
export async function listTagDigests(db: DbTx, repositoryId: string): Promise<{ name: string; digest: string | null }[]> {
  return db.upstreamTag.findMany({ where: { repositoryId, digest: { not: null } }, select: { name: true, digest: true } });
}
