import type { DbTx } from "@/lib/db/client";

/** Records when an agent key (`agent`) or API token was last used. */
export async function touchCredential(db: DbTx, id: string, agent: boolean, at: Date): Promise<void> {
  if (agent) await db.agentKey.update({ where: { id }, data: { lastUsedAt: at } });
  else await db.apiToken.update({ where: { id }, data: { lastUsedAt: at } });
}
