import type { DbTx } from "@/lib/db/client";

export async function deleteAgentKey(db: DbTx, id: string): Promise<void> {
  await db.agentKey.delete({ where: { id } });
}
