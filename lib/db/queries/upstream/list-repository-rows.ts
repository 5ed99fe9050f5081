import type { DbTx } from "@/lib/db/client";

/** The rows of one repository key a workspace sees: the shared one and its own. */
export async function listRepositoryRows(db: DbTx, workspaceId: string, key: string) {
  return db.upstreamRepository.findMany({ where: { key, OR: [{ ownerWorkspaceId: null }, { ownerWorkspaceId: workspaceId }] } });
}
