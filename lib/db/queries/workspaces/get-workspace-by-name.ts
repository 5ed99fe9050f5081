import type { DbTx } from "@/lib/db/client";

export async function getWorkspaceByName(db: DbTx, name: string) {
  return db.workspace.findUnique({ where: { name } });
}
