import type { DbTx } from "@/lib/db/client";

/** Workspaces with an enabled upgrade-plan rule and no event of `dedupeKey` yet. */
export async function listWorkspacesDuePlan(db: DbTx, dedupeKey: string): Promise<string[]> {
  const due = await db.$queryRaw<{ workspace_id: string }[]>`
    SELECT DISTINCT r.workspace_id::text FROM notification_rules r
    WHERE r.enabled AND 'upgrade_plan' = ANY(r.events)
      AND NOT EXISTS (SELECT 1 FROM events e WHERE e.workspace_id = r.workspace_id AND e.dedupe_key = ${dedupeKey})`;
  return due.map((d) => d.workspace_id);
}
