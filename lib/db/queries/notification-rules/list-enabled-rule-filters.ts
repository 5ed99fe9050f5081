import type { DbTx } from "@/lib/db/client";

/** The enabled rules of these workspaces, with what they match. */
export async function listEnabledRuleFilters(db: DbTx, workspaceIds: string[]) {
  return db.notificationRule.findMany({
    where: { workspaceId: { in: workspaceIds }, enabled: true },
    select: { id: true, workspaceId: true, events: true, kinds: true, services: true, environments: true, teams: true },
  });
}
