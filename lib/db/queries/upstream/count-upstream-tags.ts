import type { DbTx } from "@/lib/db/client";

/** How many tags are stored for this repository. */
export async function countUpstreamTags(db: DbTx, repositoryId: string): Promise<number> {
  return db.upstreamTag.count({ where: { repositoryId } });
}
