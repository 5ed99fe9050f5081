import { Prisma, statementRows, type DbTx } from "@/lib/db/client";

export type GateEnvironmentRow = { id: string; name: string; position: number; gate: unknown };

/** The workspace's environments in pipeline order (position, then name), with their gate settings. */
export async function listGateEnvironments(db: DbTx, workspaceId: string): Promise<GateEnvironmentRow[]> {
  return statementRows<GateEnvironmentRow>(db, Prisma.sql`
    SELECT id::text, name, position, gate FROM environments WHERE workspace_id = ${workspaceId}::uuid ORDER BY position, name`);
}
