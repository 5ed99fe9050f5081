// The teams named on services, for the filter menus.
import { listTeams as readTeams } from "@/lib/db/queries/services/list-teams";
import { workspaceOf, type RequestCtx } from "../context";

export async function listTeams({ ctx }: { ctx: RequestCtx }): Promise<string[]> {
  return readTeams(ctx.db, workspaceOf(ctx.actor));
}
