import type { DbTx } from "@/lib/db/client";

/** The names of the tags stored for this repository. */
export async function listTagNames(db: DbTx, repositoryId: string): Promise<string[]> {
  return (await db.upstreamTag.findMany({ where: { repositoryId }, select: { name: true } })).map((t) => t.name);
}
