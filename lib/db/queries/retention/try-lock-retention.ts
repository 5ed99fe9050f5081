import type { Prisma } from "@/lib/db/client";

/** Any constant of our own: pg_try_advisory_xact_lock keeps two processes from pruning at once. */
const LOCK_KEY = 0x64777265; // "dwre"

/** The retention lock until the transaction ends; false when another transaction holds it. */
export async function tryLockRetention(tx: Prisma.TransactionClient): Promise<boolean> {
  const [row] = await tx.$queryRaw<{ ok: boolean }[]>`SELECT pg_try_advisory_xact_lock(${LOCK_KEY}) AS ok`;
  return row?.ok === true;
}
