import type { DbTx } from "@/lib/db/client";

export async function countEnvironments(db: DbTx, workspaceId: string): Promise<number> {
  return db.environment.count({ where: { workspaceId } });
}
