import type { DbTx } from "@/lib/db/client";

/** The running digests of this repository looked up before, with the tag found (or when to look again). */
export async function listDigestResolutions(db: DbTx, repositoryId: string) {
  return db.digestResolution.findMany({ where: { repositoryId } });
}
