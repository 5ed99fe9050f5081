import type { DbTx } from "@/lib/db/client";

export type ReleaseRow = { forge_repository_id: string; tag: string; name: string | null; published_at: Date | null; url: string; prerelease: boolean };

/** Releases of each (forge repository id, lower-case tag) pair, by repository and tag. */
export async function listReleasesByTag(db: DbTx, ids: string[], tags: string[]): Promise<ReleaseRow[]> {
  return db.$queryRaw<ReleaseRow[]>`
    SELECT r.forge_repository_id::text, r.tag, r.name, r.published_at, r.url, r.prerelease
    FROM releases r
    JOIN unnest(${ids}::uuid[], ${tags}::text[]) AS w(id, tag) ON r.forge_repository_id = w.id AND lower(r.tag) = w.tag
    ORDER BY r.forge_repository_id, r.tag`;
}
