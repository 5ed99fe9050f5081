import type { Db } from "@/lib/db/client";

export type ComposeConfig = { repository_url: string; branch: string; paths: string[] };
export type DueComposeTarget = { id: string; workspace_id: string; name: string; config: ComposeConfig; environment: string };

/**
 * Compose-in-Git targets due for a refresh (or those of `forced`), up to `limit`, leased until `lease`:
 * several workers split them with FOR UPDATE SKIP LOCKED.
 */
export async function leaseDueComposeTargets(db: Db, now: Date, lease: Date, limit: number, forced: string[] | null): Promise<DueComposeTarget[]> {
  return db.$queryRaw<DueComposeTarget[]>`
    UPDATE targets t SET refresh_due_at = ${lease}
    FROM environments e
    WHERE t.id IN (
      SELECT id FROM targets
      WHERE kind = 'compose_git' AND config ? 'repository_url'
        AND (${forced}::uuid[] IS NOT NULL AND id = ANY(${forced}::uuid[]) OR ${forced}::uuid[] IS NULL AND (refresh_due_at IS NULL OR refresh_due_at <= ${now}))
      ORDER BY refresh_due_at NULLS FIRST
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED)
      AND e.id = t.environment_id
    RETURNING t.id::text, t.workspace_id::text, t.name, t.config, e.name AS environment`;
}
