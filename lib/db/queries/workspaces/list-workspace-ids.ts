import type { DbTx } from "@/lib/db/client";

/** Every workspace's id, oldest first. */
export async function listWorkspaceIds(db: DbTx): Promise<string[]> {
  const rows = await db.$queryRaw<{ id: string }[]>`SELECT id::text FROM workspaces ORDER BY created_at`;
  return rows.map((r) => r.id);
}
