// Arrivals for the delivery statistics: the first time each tag (and resolved
// version) ran per service and environment, from runtime rows of main
// containers (declarations are not deploys) plus the deploys retention folded
// out of history (delivery_arrivals, lib/services/retention/prune.ts), so old
// periods count the same.
import type { Db } from "@/lib/db/client";

/**
 * One service in one environment: parallel arrays, one entry per arrival.
 * Grouped, with times as epoch milliseconds, so a workspace's whole history
 * reads as a few thousand rows of arrays rather than one object per arrival,
 * which keeps the heap small.
 */
export type ArrivalGroup = {
  service_id: string;
  environment_id: string;
  tags: string[];
  /** The tag's own version, when it has one. */
  versions: (string | null)[];
  /** The tag the digest cache resolves the digest to (moving tags). */
  resolved: (string | null)[];
  since_ms: number[];
};

/** Arrivals of history rows that started before `to` and still ran at or after `since`. */
export async function loadArrivalGroups(db: Db, workspaceId: string, since: Date, to: Date): Promise<ArrivalGroup[]> {
  return db.$queryRaw<ArrivalGroup[]>`
    WITH firsts AS (
      SELECT r.service_id, r.environment_id, r.repository, r.tag, r.version, r.digest, r.platform_digest, min(r."from") AS since
      FROM runs r
      WHERE r.workspace_id = ${workspaceId}::uuid AND r.is_main AND NOT r.declared
        AND r."from" < ${to} AND (r."to" IS NULL OR r."to" >= ${since})
      GROUP BY 1, 2, 3, 4, 5, 6, 7
    ), arrivals AS (
      SELECT f.service_id, f.environment_id, f.tag, f.version, res.tag AS resolved_tag, min(f.since) AS since
      FROM firsts f
      LEFT JOIN LATERAL (
        SELECT d.tag FROM upstream_repositories u
        JOIN digest_resolutions d ON d.repository_id = u.id
        WHERE u.key = f.repository AND (u.owner_workspace_id IS NULL OR u.owner_workspace_id = ${workspaceId}::uuid)
          AND d.tag IS NOT NULL AND (d.digest = f.digest OR d.digest = f.platform_digest)
        ORDER BY u.owner_workspace_id NULLS LAST
        LIMIT 1
      ) res ON true
      GROUP BY 1, 2, 3, 4, 5
      UNION ALL
      -- Folded deploys: the version is already exact (given as tag, tag version and resolved version alike).
      SELECT a.service_id, a.environment_id, a.version, a.version, a.version, a.first_from
      FROM delivery_arrivals a
      WHERE a.workspace_id = ${workspaceId}::uuid AND a.first_from < ${to} AND a.last_to >= ${since}
    )
    SELECT service_id::text, environment_id::text, array_agg(tag) AS tags, array_agg(version) AS versions,
      array_agg(resolved_tag) AS resolved, array_agg((extract(epoch FROM since) * 1000)::float8) AS since_ms
    FROM arrivals
    GROUP BY 1, 2`;
}
