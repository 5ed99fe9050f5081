import type { DbTx } from "@/lib/db/client";

/** With their users, oldest membership first. */
export async function listMembers(db: DbTx, workspaceId: string) {
  return db.membership.findMany({ where: { workspaceId }, include: { user: true }, orderBy: { createdAt: "asc" } });
}
