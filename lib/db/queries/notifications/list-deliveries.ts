import type { DbTx } from "@/lib/db/client";

/** A rule's deliveries, newest first, with their events' type and payload. */
export async function listDeliveries(db: DbTx, ruleId: string, opts: { state?: "pending" | "sent" | "failed"; limit: number }) {
  return db.delivery.findMany({
    where: { ruleId, ...(opts.state ? { state: opts.state } : {}) },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    take: opts.limit,
    include: { event: { select: { type: true, payload: true } } },
  });
}
