import { Prisma, type SqlTx } from "@/lib/db/client";

/** The snapshot to label an evaluation with: read under the workspace's lock, before anything else. */
export async function readEvaluationSnapshot(tx: SqlTx): Promise<string> {
  const [row] = await tx.rows<{ snapshot: string }>(Prisma.sql`SELECT pg_current_snapshot()::text AS snapshot`);
  return row!.snapshot;
}
