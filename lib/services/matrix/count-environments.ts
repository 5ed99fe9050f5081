// How many environments there are: how many matrix rows fit a page.
import { workspaceOf, type RequestCtx } from "../context";

export async function countEnvironments({ ctx }: { ctx: RequestCtx }): Promise<number> {
  return ctx.db.environment.count({ where: { workspaceId: workspaceOf(ctx.actor) } });
}
