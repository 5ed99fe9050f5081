import type { DbTx } from "@/lib/db/client";

/** null when the workspace has no service of that name. */
export async function getServiceId(db: DbTx, workspaceId: string, name: string): Promise<string | null> {
  return (await db.service.findUnique({ where: { workspaceId_name: { workspaceId, name } }, select: { id: true } }))?.id ?? null;
}
