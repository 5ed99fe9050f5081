import type { DbTx } from "@/lib/db/client";
import { ackRowInclude, type AckRow } from "./ack-row";

export type NewAck = Omit<AckRow, "id" | "liftedAt" | "service" | "environment"> & { workspaceId: string; createdBy: string };

export async function createAck(db: DbTx, data: NewAck): Promise<AckRow> {
  return db.ack.create({ data, include: ackRowInclude });
}
