import type { DbTx } from "@/lib/db/client";

export async function deleteNotificationRule(db: DbTx, id: string): Promise<void> {
  await db.notificationRule.delete({ where: { id } });
}
