import type { DbTx } from "@/lib/db/client";

export async function getUserByEmail(db: DbTx, email: string) {
  return db.user.findUnique({ where: { email } });
}
