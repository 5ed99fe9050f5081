// Whether anything has been reported yet: pages with nothing to list say
// "nothing reported yet" then, never "everything is up to date".
import { hasServices } from "@/lib/db/queries/services/has-services";
import { requireRole, workspaceOf, type RequestCtx } from "../context";

export async function hasAnyService({ ctx }: { ctx: RequestCtx }): Promise<boolean> {
  requireRole(ctx.actor, "viewer");
  return hasServices(ctx.db, workspaceOf(ctx.actor));
}
