import type { DbTx } from "@/lib/db/client";
import { ackRowInclude, type AckRow } from "./ack-row";

export async function createAck(
  db: DbTx,
  data: {
    workspaceId: string;
    serviceId: string;
    environmentId: string | null;
    kind: "release" | "drift";
    untilVersion: string | null;
    skipVersion: string | null;
    expiresAt: Date | null;
    createdBy: string;
    createdAt: Date;
  },
): Promise<AckRow> {
  return db.ack.create({ data, include: ackRowInclude });
}
