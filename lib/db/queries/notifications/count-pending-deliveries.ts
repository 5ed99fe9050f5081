import type { DbTx } from "@/lib/db/client";

/** Deliveries of the workspace's events not yet sent or given up. */
export async function countPendingDeliveries(db: DbTx, workspaceId: string): Promise<number> {
  return db.delivery.count({ where: { state: "pending", event: { workspaceId } } });
}
