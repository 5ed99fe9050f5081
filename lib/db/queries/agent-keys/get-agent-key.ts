import { Prisma, statementRows, type DbTx, type SqlTx } from "@/lib/db/client";

export type AgentKeyRow = { id: string; workspaceId: string; name: string; prefix: string; createdAt: Date; lastUsedAt: Date | null; revokedAt: Date | null };

export const AGENT_KEY_COLUMNS = Prisma.sql`id::text, workspace_id::text AS "workspaceId", name, prefix, created_at AS "createdAt", last_used_at AS "lastUsedAt", revoked_at AS "revokedAt"`;

export async function getAgentKey(db: DbTx | SqlTx, workspaceId: string, name: string): Promise<AgentKeyRow | null> {
  const [row] = await statementRows<AgentKeyRow>(db, Prisma.sql`SELECT ${AGENT_KEY_COLUMNS} FROM agent_keys WHERE workspace_id = ${workspaceId}::uuid AND name = ${name}`);
  return row ?? null;
}
