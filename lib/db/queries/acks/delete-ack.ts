import type { DbTx } from "@/lib/db/client";

export async function deleteAck(db: DbTx, id: string): Promise<void> {
  await db.ack.delete({ where: { id } });
}
