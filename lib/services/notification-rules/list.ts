// The workspace's notification rules, secrets masked.
import { requireRole, workspaceOf, type RequestCtx } from "../context";
import { toRuleOut, type RuleOut } from "./rules";

export async function listRules({ ctx }: { ctx: RequestCtx }): Promise<{ items: RuleOut[] }> {
  requireRole(ctx.actor, "member");
  const workspaceId = workspaceOf(ctx.actor);
  const rows = await ctx.db.notificationRule.findMany({ where: { workspaceId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return { items: rows.map(toRuleOut) };
}
