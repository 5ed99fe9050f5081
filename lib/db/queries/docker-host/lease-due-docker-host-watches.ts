import type { Db } from "@/lib/db/client";

export type DueDockerHostWatch = { id: string; workspace_id: string; environment: string; target_name: string };

/**
 * The enabled watches of one engine that are due, leased until `lease`: processes that read the same
 * engine split them with FOR UPDATE SKIP LOCKED, so none runs twice in an interval.
 */
export async function leaseDueDockerHostWatches(db: Db, engineId: string, now: Date, lease: Date, limit: number): Promise<DueDockerHostWatch[]> {
  return db.$queryRaw<DueDockerHostWatch[]>`
    UPDATE docker_host_watches w SET due_at = ${lease}
    FROM environments e
    WHERE w.id IN (
      SELECT id FROM docker_host_watches
      WHERE engine_id = ${engineId} AND enabled AND due_at <= ${now}
      ORDER BY due_at
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED)
      AND e.id = w.environment_id
    RETURNING w.id::text, w.workspace_id::text, e.name AS environment, w.target_name`;
}
