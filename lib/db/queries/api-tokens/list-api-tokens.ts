import type { DbTx } from "@/lib/db/client";

/** Newest first. */
export async function listApiTokens(db: DbTx, workspaceId: string) {
  return db.apiToken.findMany({ where: { workspaceId }, orderBy: { createdAt: "desc" } });
}
