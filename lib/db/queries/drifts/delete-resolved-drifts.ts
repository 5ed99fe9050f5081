import type { DbTx } from "@/lib/db/client";

/** Up to `batch` records resolved before `cutoff`; the number removed. */
export async function deleteResolvedDrifts(db: DbTx, workspaceId: string, cutoff: Date, batch: number): Promise<number> {
  return db.$executeRaw`
      DELETE FROM drifts WHERE id IN (
        SELECT id FROM drifts WHERE workspace_id = ${workspaceId}::uuid AND resolved_at < ${cutoff} AND active IS NULL LIMIT ${batch})`;
}
