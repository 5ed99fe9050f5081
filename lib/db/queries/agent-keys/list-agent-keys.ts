import type { DbTx } from "@/lib/db/client";

/** Active keys first, then by name, each with the names of the targets it reports. */
export async function listAgentKeys(db: DbTx, workspaceId: string) {
  return db.agentKey.findMany({
    where: { workspaceId },
    orderBy: [{ revokedAt: { sort: "desc", nulls: "first" } }, { name: "asc" }],
    include: { targets: { select: { name: true }, orderBy: { name: "asc" } } },
  });
}
