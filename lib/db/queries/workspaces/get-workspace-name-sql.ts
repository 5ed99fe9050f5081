import { Prisma, type SqlTx } from "@/lib/db/client";

/** getWorkspaceName for a transaction of sqlTransaction; null when the workspace is gone. */
export async function getWorkspaceNameSql(tx: SqlTx, id: string): Promise<string | null> {
  const [workspace] = await tx.rows<{ name: string }>(Prisma.sql`SELECT name FROM workspaces WHERE id = ${id}::uuid`);
  return workspace?.name ?? null;
}
