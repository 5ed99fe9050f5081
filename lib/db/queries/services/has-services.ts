import type { DbTx } from "@/lib/db/client";

/** Whether the workspace has any service yet (an agent or a Compose-in-Git target has reported one). */
export async function hasServices(db: DbTx, workspaceId: string): Promise<boolean> {
  return (await db.service.findFirst({ where: { workspaceId }, select: { id: true } })) !== null;
}
