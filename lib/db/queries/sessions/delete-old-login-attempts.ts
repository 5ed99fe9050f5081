import type { DbTx } from "@/lib/db/client";

/** Sign-in failures recorded before `before`; the number removed. */
export async function deleteOldLoginAttempts(db: DbTx, before: Date): Promise<number> {
  return db.$executeRaw`DELETE FROM login_attempts WHERE at < ${before}`;
}
