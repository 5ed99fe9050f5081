import type { DbTx } from "@/lib/db/client";
type Role = "owner" | "admin" | "member" | "viewer";

export async function createMembership(db: DbTx, data: { workspaceId: string; userId: string; role: Role }) {
  return db.membership.create({ data, include: { user: true } });
}
