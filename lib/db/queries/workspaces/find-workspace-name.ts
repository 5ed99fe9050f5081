import type { DbTx } from "@/lib/db/client";

/** null when the workspace is gone. */
export async function findWorkspaceName(db: DbTx, id: string): Promise<string | null> {
  return (await db.workspace.findUnique({ where: { id }, select: { name: true } }))?.name ?? null;
}
