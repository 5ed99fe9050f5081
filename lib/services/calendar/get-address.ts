// The workspace calendar's address, as Settings and the API hand it out.
import { requireRole, workspaceOf, type RequestCtx } from "../context";
import { ensureBadgeKey } from "../badges/keys";
import { calendarUrl } from "./address";

/** Members and higher: the address needs no sign-in, so it is handed out like a badge's. */
export async function getCalendarAddress({ ctx }: { ctx: RequestCtx }): Promise<{ url: string }> {
  requireRole(ctx.actor, "member");
  const workspaceId = workspaceOf(ctx.actor);
  const key = await ensureBadgeKey(ctx.db, workspaceId);
  return { url: calendarUrl(ctx.config.baseUrl, key, workspaceId) };
}
