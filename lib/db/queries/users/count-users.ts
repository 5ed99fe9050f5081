import type { DbTx } from "@/lib/db/client";

export async function countUsers(db: DbTx): Promise<number> {
  return db.user.count();
}
