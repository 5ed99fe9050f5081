// How many environments there are: how many matrix rows fit a page.
import { countEnvironments as countRows } from "@/lib/db/queries/environments/count-environments";
import { workspaceOf, type RequestCtx } from "../context";

export async function countEnvironments({ ctx }: { ctx: RequestCtx }): Promise<number> {
  return countRows(ctx.db, workspaceOf(ctx.actor));
}
