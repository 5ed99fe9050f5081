import type { DbTx } from "@/lib/db/client";

/** Tags and digests of this repository running now (declared runs left out), with a digest known. */
export async function listRunningDigests(db: DbTx, repositoryKey: string): Promise<{ tag: string; digest: string | null; platform_digest: string | null }[]> {
  return db.$queryRaw<{ tag: string; digest: string | null; platform_digest: string | null }[]>`
    SELECT DISTINCT r.tag, r.digest, r.platform_digest FROM runs r
    WHERE r.repository = ${repositoryKey} AND r."to" IS NULL AND NOT r.declared AND (r.digest IS NOT NULL OR r.platform_digest IS NOT NULL)`;
}
