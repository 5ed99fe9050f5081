import type { DbTx } from "@/lib/db/client";

/** Oldest first. */
export async function listNotificationRules(db: DbTx, workspaceId: string) {
  return db.notificationRule.findMany({ where: { workspaceId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
}
