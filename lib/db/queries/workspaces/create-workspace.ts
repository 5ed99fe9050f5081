import type { DbTx } from "@/lib/db/client";

export async function createWorkspace(db: DbTx, name: string) {
  return db.workspace.create({ data: { name } });
}
