import type { DbTx } from "@/lib/db/client";

/** In pipeline order (position, then name), with how many targets report into each. */
export async function listEnvironments(db: DbTx, workspaceId: string) {
  return db.environment.findMany({
    where: { workspaceId },
    orderBy: [{ position: "asc" }, { name: "asc" }],
    include: { _count: { select: { targets: true } } },
  });
}
