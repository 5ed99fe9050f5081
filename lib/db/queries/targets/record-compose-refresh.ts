import type { DbTx } from "@/lib/db/client";

/** A refresh's outcome on its target: the commit read (when it was), and the problem met, if any. */
export async function recordComposeRefresh(db: DbTx, id: string, outcome: { lastCommit?: string; lastError: string | null }): Promise<void> {
  await db.target.update({ where: { id }, data: outcome });
}
