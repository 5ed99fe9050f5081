import type { DbTx } from "@/lib/db/client";

/** Users, leaving out the one with the e-mail `except` when given. */
export async function countUsers(db: DbTx, opts: { except?: string } = {}): Promise<number> {
  return db.user.count(opts.except ? { where: { email: { not: opts.except } } } : undefined);
}
