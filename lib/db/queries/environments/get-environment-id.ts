import type { DbTx } from "@/lib/db/client";

/** null when the workspace has no environment of that name. */
export async function getEnvironmentId(db: DbTx, workspaceId: string, name: string): Promise<string | null> {
  return (await db.environment.findUnique({ where: { workspaceId_name: { workspaceId, name } }, select: { id: true } }))?.id ?? null;
}
