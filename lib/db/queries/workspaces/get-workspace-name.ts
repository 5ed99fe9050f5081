import type { DbTx } from "@/lib/db/client";

/** Throws when the workspace does not exist. */
export async function getWorkspaceName(db: DbTx, id: string): Promise<string> {
  return (await db.workspace.findUniqueOrThrow({ where: { id }, select: { name: true } })).name;
}
