import type { DbTx } from "@/lib/db/client";

export async function getWorkspaceWithMembers(db: DbTx, name: string) {
  return db.workspace.findUnique({ where: { name }, include: { memberships: true } });
}
