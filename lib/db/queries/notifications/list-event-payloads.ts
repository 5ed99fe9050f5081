import type { DbTx } from "@/lib/db/client";

export async function listEventPayloads(db: DbTx, ids: string[]): Promise<{ id: string; payload: unknown }[]> {
  return db.event.findMany({ where: { id: { in: ids } }, select: { id: true, payload: true } });
}
