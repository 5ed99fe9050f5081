import type { DbTx } from "@/lib/db/client";

export async function createLoginFailures(db: DbTx, keys: string[], at: Date): Promise<void> {
  await db.loginAttempt.createMany({ data: keys.map((key) => ({ key, at })) });
}
