import type { DbTx } from "@/lib/db/client";

/** In pipeline order of their environments, then by name, with the environment's name. */
export async function listTargets(db: DbTx, workspaceId: string) {
  return db.target.findMany({
    where: { workspaceId },
    orderBy: [{ environment: { position: "asc" } }, { name: "asc" }],
    include: { environment: { select: { name: true } } },
  });
}
