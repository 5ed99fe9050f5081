import type { Prisma } from "@/lib/db/client";
import { RESOLVED_TAG_JOIN } from "@/lib/db/queries/upstream/resolved-tag-join";

export type PrunableRun = {
  id: bigint; service_id: string; environment_id: string; counts: boolean; tag: string; version: string | null; resolved_tag: string | null; from: Date; to: Date;
};

/**
 * Up to `batch` history rows closed before the cutoff, oldest end first, and not the last row of
 * its service on its target; locked (rows another transaction holds are skipped).
 */
export async function listPrunableRuns(tx: Prisma.TransactionClient, workspaceId: string, cutoff: Date, batch: number): Promise<PrunableRun[]> {
  return tx.$queryRaw<PrunableRun[]>`
        SELECT r.id, r.service_id::text, r.environment_id::text, (r.is_main AND NOT r.declared) AS counts, r.tag, r.version, res.tag AS resolved_tag, r."from", r."to"
        FROM runs r
        ${RESOLVED_TAG_JOIN}
        -- A probe per candidate on (workspace_id, service_id, environment_id, from), not a hash of all history.
        JOIN LATERAL (
          SELECT 1 FROM runs n
          WHERE n.workspace_id = r.workspace_id AND n.service_id = r.service_id AND n.environment_id = r.environment_id
            AND n."from" >= r."from" AND n.target_id = r.target_id AND (n."from" > r."from" OR n.id > r.id)
          LIMIT 1
        ) later ON true
        WHERE r.workspace_id = ${workspaceId}::uuid AND r."to" < ${cutoff}
        ORDER BY r."to"
        LIMIT ${batch}
        FOR UPDATE OF r SKIP LOCKED`;
}
