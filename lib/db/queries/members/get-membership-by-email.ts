import type { DbTx } from "@/lib/db/client";

/** With its user; `email` as stored (trimmed, lower case). */
export async function getMembershipByEmail(db: DbTx, workspaceId: string, email: string) {
  return db.membership.findFirst({ where: { workspaceId, user: { email } }, include: { user: true } });
}
