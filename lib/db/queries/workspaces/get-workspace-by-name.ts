import { Prisma, statementRows, type DbTx, type SqlTx } from "@/lib/db/client";

export type WorkspaceRow = { id: string; name: string; createdAt: Date; settings: unknown };

export async function getWorkspaceByName(db: DbTx | SqlTx, name: string): Promise<WorkspaceRow | null> {
  const [row] = await statementRows<WorkspaceRow>(db, Prisma.sql`
    SELECT id::text, name, created_at AS "createdAt", settings FROM workspaces WHERE name = ${name}`);
  return row ?? null;
}
