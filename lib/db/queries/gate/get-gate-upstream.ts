import { Prisma, statementRows, type DbTx } from "@/lib/db/client";

/**
 * The upstream tags of a repository (the workspace's own row first, else the shared one;
 * null when it was never listed) and the release a digest of it was resolved to.
 */
export async function getGateUpstream(db: DbTx, workspaceId: string, key: string, digest: string | null): Promise<{ tags: string[] | null; resolved: string | null }> {
  const [row] = await statementRows<{ tags: string[] | null; resolved: string | null }>(db, Prisma.sql`
    WITH u AS (
      SELECT id FROM upstream_repositories
      WHERE key = ${key} AND (owner_workspace_id IS NULL OR owner_workspace_id = ${workspaceId}::uuid)
      ORDER BY owner_workspace_id NULLS LAST LIMIT 1)
    SELECT (SELECT json_agg(t.name) FROM upstream_tags t JOIN u ON t.repository_id = u.id) AS tags,
           (SELECT d.tag FROM upstream_repositories ur JOIN digest_resolutions d ON d.repository_id = ur.id
            WHERE ur.key = ${key} AND (ur.owner_workspace_id IS NULL OR ur.owner_workspace_id = ${workspaceId}::uuid)
              AND d.tag IS NOT NULL AND d.digest = ${digest ?? ""}
            ORDER BY ur.owner_workspace_id NULLS LAST LIMIT 1) AS resolved`);
  return { tags: row?.tags ?? null, resolved: row?.resolved ?? null };
}
