import type { DbTx } from "@/lib/db/client";
import { ackRowInclude, type AckRow } from "./ack-row";

/** null when the workspace has no such acknowledgement. */
export async function getAck(db: DbTx, workspaceId: string, id: string): Promise<AckRow | null> {
  return db.ack.findFirst({ where: { id, workspaceId }, include: ackRowInclude });
}
