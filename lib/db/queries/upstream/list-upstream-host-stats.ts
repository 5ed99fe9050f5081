import type { DbTx } from "@/lib/db/client";

export type UpstreamHostStats = { host: string; repositories: number; mean_ms: number | null; max_ms: number | null; failures: number; failing: number };

/** Upstream repositories the workspace uses (its services' and its own private ones), aggregated by host. */
export async function listUpstreamHostStats(db: DbTx, workspaceId: string): Promise<UpstreamHostStats[]> {
  return db.$queryRaw<UpstreamHostStats[]>`
    WITH used AS (
      SELECT DISTINCT repository AS key FROM runs WHERE workspace_id = ${workspaceId}::uuid AND "to" IS NULL AND is_main
      UNION
      SELECT repository FROM services WHERE workspace_id = ${workspaceId}::uuid AND repository IS NOT NULL
    )
    SELECT u.host, count(*)::int AS repositories, avg(u.last_duration_ms)::float8 AS mean_ms, max(u.last_duration_ms)::float8 AS max_ms,
           COALESCE(sum(u.failures), 0)::int AS failures, (count(*) FILTER (WHERE u.last_error IS NOT NULL))::int AS failing
    FROM upstream_repositories u
    WHERE u.owner_workspace_id = ${workspaceId}::uuid
       OR (u.owner_workspace_id IS NULL AND u.key IN (SELECT key FROM used)
           AND NOT EXISTS (SELECT 1 FROM upstream_repositories o WHERE o.key = u.key AND o.owner_workspace_id = ${workspaceId}::uuid))
    GROUP BY u.host
    ORDER BY u.host`;
}
