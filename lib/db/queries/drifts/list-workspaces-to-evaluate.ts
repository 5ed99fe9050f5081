import type { Db } from "@/lib/db/client";

/** Workspaces that run something or have live drift; per workspace, one index probe each: a DISTINCT over every open row and live drift grows with the fleet. */
export async function listWorkspacesToEvaluate(db: Db): Promise<string[]> {
  const rows = await db.$queryRaw<{ workspace_id: string }[]>`
    SELECT w.id::text AS workspace_id FROM workspaces w
    WHERE EXISTS (SELECT 1 FROM runs r WHERE r.workspace_id = w.id AND r."to" IS NULL)
       OR EXISTS (SELECT 1 FROM drifts d WHERE d.workspace_id = w.id AND d.active)`;
  return rows.map((r) => r.workspace_id);
}
