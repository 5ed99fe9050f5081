import type { DbTx } from "@/lib/db/client";

/** Oldest first, with the user's e-mail. */
export async function listMembershipsOfUser(db: DbTx, userId: string) {
  return db.membership.findMany({
    where: { userId },
    include: { user: { select: { email: true } } },
    orderBy: { createdAt: "asc" },
  });
}
