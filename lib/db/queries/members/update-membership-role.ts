import type { DbTx } from "@/lib/db/client";
type Role = "owner" | "admin" | "member" | "viewer";

export async function updateMembershipRole(db: DbTx, workspaceId: string, userId: string, role: Role) {
  return db.membership.update({ where: { workspaceId_userId: { workspaceId, userId } }, data: { role }, include: { user: true } });
}
