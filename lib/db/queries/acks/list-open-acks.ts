import type { Db } from "@/lib/db/client";
import type { AckRecord } from "@/lib/domain/drift";

/** Acknowledgements that may still be in force: not lifted, not expired; of these services only, when given. */
export async function listOpenAcks(db: Db, workspaceId: string, now: Date, serviceIds?: string[]): Promise<AckRecord[]> {
  return db.ack.findMany({
    where: { workspaceId, ...(serviceIds ? { serviceId: { in: serviceIds } } : {}), liftedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
    select: { id: true, serviceId: true, environmentId: true, kind: true, untilVersion: true, skipVersion: true, expiresAt: true, liftedAt: true, createdAt: true },
  });
}
