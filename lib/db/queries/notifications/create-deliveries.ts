import type { DbTx } from "@/lib/db/client";

/** How many were new: an (event, rule) pair already delivered is skipped. */
export async function createDeliveries(db: DbTx, deliveries: { eventId: string; ruleId: string; nextAttemptAt: Date; createdAt: Date }[]): Promise<number> {
  if (deliveries.length === 0) return 0;
  return (await db.delivery.createMany({ data: deliveries, skipDuplicates: true })).count;
}
