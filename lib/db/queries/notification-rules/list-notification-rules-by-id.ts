import type { DbTx } from "@/lib/db/client";

export async function listNotificationRulesById(db: DbTx, ids: string[]) {
  return db.notificationRule.findMany({ where: { id: { in: ids } } });
}
