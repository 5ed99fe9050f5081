import type { DbTx } from "@/lib/db/client";

export async function createUser(db: DbTx, data: { email: string; passwordHash: string | null; name?: string | null }) {
  return db.user.create({ data });
}
