import type { Db } from "@/lib/db/client";

/**
 * Workspaces that run something or have live drift; per workspace, one index probe each: a DISTINCT
 * over every open row and live drift grows with the fleet. Live drift is looked for only in the
 * workspaces that run nothing (rarely any): once most drifts are resolved, the planner expects a
 * sequential scan to meet a live one soon, and would read every drift of a workspace that has none.
 */
export async function listWorkspacesToEvaluate(db: Db): Promise<string[]> {
  const rows = await db.$queryRaw<{ workspace_id: string; running: boolean }[]>`
    SELECT w.id::text AS workspace_id, EXISTS (SELECT 1 FROM runs r WHERE r.workspace_id = w.id AND r."to" IS NULL) AS running
    FROM workspaces w`;
  const idle = rows.filter((r) => !r.running).map((r) => r.workspace_id);
  const drifting = idle.length === 0 ? [] : await db.$queryRaw<{ workspace_id: string }[]>`
    SELECT w.id::text AS workspace_id FROM unnest(${idle}::uuid[]) AS w(id)
    WHERE EXISTS (SELECT 1 FROM drifts d WHERE d.workspace_id = w.id AND d.active)`;
  const live = new Set(drifting.map((r) => r.workspace_id));
  return rows.filter((r) => r.running || live.has(r.workspace_id)).map((r) => r.workspace_id);
}
