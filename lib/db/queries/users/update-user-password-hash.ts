import type { DbTx } from "@/lib/db/client";

export async function updateUserPasswordHash(db: DbTx, userId: string, passwordHash: string): Promise<void> {
  await db.user.update({ where: { id: userId }, data: { passwordHash } });
}
