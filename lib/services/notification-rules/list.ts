// The workspace's notification rules, secrets masked.
import { listNotificationRules } from "@/lib/db/queries/notification-rules/list-notification-rules";
import { requireRole, workspaceOf, type RequestCtx } from "../context";
import { toRuleOut, type RuleOut } from "./rules";

export async function listRules({ ctx }: { ctx: RequestCtx }): Promise<{ items: RuleOut[] }> {
  requireRole(ctx.actor, "member");
  const workspaceId = workspaceOf(ctx.actor);
  const rows = await listNotificationRules(ctx.db, workspaceId);
  return { items: rows.map(toRuleOut) };
}
