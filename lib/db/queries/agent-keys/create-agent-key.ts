import type { DbTx } from "@/lib/db/client";

export async function createAgentKey(db: DbTx, data: { workspaceId: string; name: string; prefix: string; hash: string; createdAt: Date }) {
  return db.agentKey.create({ data });
}
