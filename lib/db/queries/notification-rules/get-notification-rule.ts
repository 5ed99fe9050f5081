import type { DbTx } from "@/lib/db/client";

export async function getNotificationRule(db: DbTx, workspaceId: string, id: string) {
  return db.notificationRule.findFirst({ where: { id, workspaceId } });
}
