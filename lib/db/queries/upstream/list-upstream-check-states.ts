// The check record of every upstream repository a workspace uses (its
// services' and its own private ones), for upstream state by registry host.
import type { Db } from "@/lib/db/client";

export type UpstreamCheckStateRow = { host: string; checkedBy: "server" | "agent"; checkedAt: Date | null; lastError: string | null };

export async function loadUpstreamCheckStates(db: Db, workspaceId: string): Promise<UpstreamCheckStateRow[]> {
  return db.$queryRaw<UpstreamCheckStateRow[]>`
    WITH used AS (
      SELECT DISTINCT repository AS key FROM runs WHERE workspace_id = ${workspaceId}::uuid AND "to" IS NULL AND is_main
      UNION
      SELECT repository FROM services WHERE workspace_id = ${workspaceId}::uuid AND repository IS NOT NULL
    )
    SELECT u.host, u.checked_by::text AS "checkedBy", u.checked_at AS "checkedAt", u.last_error AS "lastError"
    FROM upstream_repositories u
    WHERE u.owner_workspace_id = ${workspaceId}::uuid
       OR (u.owner_workspace_id IS NULL AND u.key IN (SELECT key FROM used)
           AND NOT EXISTS (SELECT 1 FROM upstream_repositories o WHERE o.key = u.key AND o.owner_workspace_id = ${workspaceId}::uuid))`;
}
