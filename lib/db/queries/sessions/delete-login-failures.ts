import type { DbTx } from "@/lib/db/client";

export async function deleteLoginFailures(db: DbTx, key: string): Promise<void> {
  await db.loginAttempt.deleteMany({ where: { key } });
}
