import { Prisma } from "@/lib/db/client";

/**
 * The upstream repositories a workspace uses (its services' and its own private ones; its own row wins
 * over the shared one), as `u`: the `used` CTE and the FROM … WHERE to put around a SELECT list.
 */
export function workspaceRepositoriesSql(workspaceId: string): { with: Prisma.Sql; from: Prisma.Sql } {
  return {
    with: Prisma.sql`
    WITH used AS (
      SELECT DISTINCT repository AS key FROM runs WHERE workspace_id = ${workspaceId}::uuid AND "to" IS NULL AND is_main
      UNION
      SELECT repository FROM services WHERE workspace_id = ${workspaceId}::uuid AND repository IS NOT NULL
    )`,
    from: Prisma.sql`
    FROM upstream_repositories u
    WHERE u.owner_workspace_id = ${workspaceId}::uuid
       OR (u.owner_workspace_id IS NULL AND u.key IN (SELECT key FROM used)
           AND NOT EXISTS (SELECT 1 FROM upstream_repositories o WHERE o.key = u.key AND o.owner_workspace_id = ${workspaceId}::uuid))`,
  };
}
