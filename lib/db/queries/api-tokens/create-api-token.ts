import type { DbTx } from "@/lib/db/client";

export async function createApiToken(db: DbTx, data: { workspaceId: string; name: string; role: "viewer" | "member"; prefix: string; hash: string; createdAt: Date }) {
  return db.apiToken.create({ data });
}
