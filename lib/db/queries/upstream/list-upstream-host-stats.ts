import type { DbTx } from "@/lib/db/client";
import { workspaceRepositoriesSql } from "./workspace-repositories-sql";

export type UpstreamHostStats = { host: string; repositories: number; mean_ms: number | null; max_ms: number | null; failures: number; failing: number };

/** Upstream repositories the workspace uses (its services' and its own private ones), aggregated by host. */
export async function listUpstreamHostStats(db: DbTx, workspaceId: string): Promise<UpstreamHostStats[]> {
  const used = workspaceRepositoriesSql(workspaceId);
  return db.$queryRaw<UpstreamHostStats[]>`${used.with}
    SELECT u.host, count(*)::int AS repositories, avg(u.last_duration_ms)::float8 AS mean_ms, max(u.last_duration_ms)::float8 AS max_ms,
           COALESCE(sum(u.failures), 0)::int AS failures, (count(*) FILTER (WHERE u.last_error IS NOT NULL))::int AS failing
    ${used.from}
    GROUP BY u.host
    ORDER BY u.host`;
}
