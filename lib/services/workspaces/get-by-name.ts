// A workspace by name, for the CLI's --workspace.
import { getWorkspaceByName } from "@/lib/db/queries/workspaces/get-workspace-by-name";
import type { Db } from "@/lib/db/client";
import { AppError } from "@/lib/domain/errors";

export async function getWorkspaceByNameOrThrow(db: Db, name: string) {
  const ws = await getWorkspaceByName(db, name);
  if (!ws) throw new AppError("not_found", `Workspace ${name} does not exist; create it with driftwatch setup.`);
  return ws;
}
