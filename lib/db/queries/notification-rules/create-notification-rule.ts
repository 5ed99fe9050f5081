import type { DbTx, Prisma } from "@/lib/db/client";

export async function createNotificationRule(db: DbTx, data: Prisma.NotificationRuleUncheckedCreateInput) {
  return db.notificationRule.create({ data });
}
