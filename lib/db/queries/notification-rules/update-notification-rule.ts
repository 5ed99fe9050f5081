import type { DbTx, Prisma } from "@/lib/db/client";

export async function updateNotificationRule(db: DbTx, id: string, data: Prisma.NotificationRuleUncheckedUpdateInput) {
  return db.notificationRule.update({ where: { id }, data });
}
