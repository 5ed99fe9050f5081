import type { DbTx } from "@/lib/db/client";
import { ackRowInclude, type AckRow } from "./ack-row";

/** Newest first; only the named service's when `service` is given. */
export async function listAcks(db: DbTx, workspaceId: string, service?: string): Promise<AckRow[]> {
  return db.ack.findMany({
    where: { workspaceId, ...(service ? { service: { name: service } } : {}) },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    include: ackRowInclude,
  });
}
