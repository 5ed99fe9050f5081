import { Prisma, type SqlTx } from "@/lib/db/client";

const lockKey = (workspaceId: string) => `drift:${workspaceId}`;

/** Waits for the workspace's drift lock; held until the transaction ends. */
export async function lockDriftEvaluation(tx: SqlTx, workspaceId: string): Promise<void> {
  await tx.execute(Prisma.sql`SELECT pg_advisory_xact_lock(hashtextextended(${lockKey(workspaceId)}, 0))`);
}

/** The workspace's drift lock if nobody holds it (held until the transaction ends); false when another transaction does. */
export async function tryLockDriftEvaluation(tx: SqlTx, workspaceId: string): Promise<boolean> {
  const [row] = await tx.rows<{ ok: boolean }>(Prisma.sql`SELECT pg_try_advisory_xact_lock(hashtextextended(${lockKey(workspaceId)}, 0)) AS ok`);
  return row?.ok === true;
}
