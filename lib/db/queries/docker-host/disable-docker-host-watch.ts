import type { DbTx } from "@/lib/db/client";

/** Stop a workspace's watch; false when it has no enabled watch of that id. */
export async function disableDockerHostWatch(db: DbTx, workspaceId: string, id: string): Promise<{ targetName: string } | null> {
  const rows = await db.$queryRaw<{ target_name: string }[]>`
    UPDATE docker_host_watches SET enabled = false
    WHERE id = ${id}::uuid AND workspace_id = ${workspaceId}::uuid AND enabled
    RETURNING target_name`;
  return rows[0] ? { targetName: rows[0].target_name } : null;
}
