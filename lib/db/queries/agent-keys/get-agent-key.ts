import type { DbTx } from "@/lib/db/client";

export async function getAgentKey(db: DbTx, workspaceId: string, name: string) {
  return db.agentKey.findUnique({ where: { workspaceId_name: { workspaceId, name } } });
}
