import type { DbTx } from "@/lib/db/client";

export async function countOwners(db: DbTx, workspaceId: string): Promise<number> {
  return db.membership.count({ where: { workspaceId, role: "owner" } });
}
