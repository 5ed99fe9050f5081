import type { DbTx } from "@/lib/db/client";

/** The upstream repositories of these keys a workspace sees: the shared ones and its own (both, where both exist). */
export async function listVisibleRepositories(db: DbTx, workspaceId: string, keys: string[]): Promise<{ id: string; key: string; createdAt: Date; ownerWorkspaceId: string | null }[]> {
  return db.upstreamRepository.findMany({
    where: { key: { in: keys }, OR: [{ ownerWorkspaceId: null }, { ownerWorkspaceId: workspaceId }] },
    select: { id: true, key: true, createdAt: true, ownerWorkspaceId: true },
  });
}
