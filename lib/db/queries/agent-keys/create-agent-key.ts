import { Prisma, statementRows, type DbTx, type SqlTx } from "@/lib/db/client";
import { AGENT_KEY_COLUMNS, type AgentKeyRow } from "./get-agent-key";

export async function createAgentKey(db: DbTx | SqlTx, data: { workspaceId: string; name: string; prefix: string; hash: string; createdAt: Date }): Promise<AgentKeyRow> {
  const [row] = await statementRows<AgentKeyRow>(db, Prisma.sql`
    INSERT INTO agent_keys (id, workspace_id, name, prefix, hash, created_at)
    VALUES (gen_random_uuid(), ${data.workspaceId}::uuid, ${data.name}, ${data.prefix}, ${data.hash}, ${data.createdAt})
    RETURNING ${AGENT_KEY_COLUMNS}`);
  return row!;
}
