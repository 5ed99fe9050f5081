import type { DbTx } from "@/lib/db/client";
import type { AckRecord } from "@/lib/domain/drift";

/** Acknowledgements neither lifted nor expired at `now`, oldest first. */
export async function listAcksInForce(db: DbTx, workspaceId: string, now: Date): Promise<AckRecord[]> {
  return db.ack.findMany({
    where: { workspaceId, AND: [{ OR: [{ liftedAt: null }, { liftedAt: { gt: now } }] }, { OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] }] },
    orderBy: { createdAt: "asc" },
    select: { id: true, serviceId: true, environmentId: true, kind: true, untilVersion: true, skipVersion: true, expiresAt: true, liftedAt: true, createdAt: true },
  });
}
