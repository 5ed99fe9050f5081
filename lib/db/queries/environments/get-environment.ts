import type { DbTx } from "@/lib/db/client";

export async function getEnvironment(db: DbTx, workspaceId: string, name: string) {
  return db.environment.findUnique({ where: { workspaceId_name: { workspaceId, name } } });
}
