// Deleting a notification rule; one that allows private destinations only an admin.
import { actorLabel, requireRole, workspaceOf, type RequestCtx } from "../context";
import { getRuleRowOrThrow, requireAdminFor } from "./rules";

export async function deleteRule({ ctx, input: { id } }: { ctx: RequestCtx; input: { id: string } }): Promise<void> {
  requireRole(ctx.actor, "member");
  const workspaceId = workspaceOf(ctx.actor);
  const current = await getRuleRowOrThrow(ctx, id);
  requireAdminFor(ctx, current.allowPrivate);
  await ctx.db.$transaction([
    ctx.db.notificationRule.delete({ where: { id: current.id } }),
    ctx.db.auditEntry.create({ data: { workspaceId, actor: actorLabel(ctx.actor), action: "notification_rule.deleted", subject: current.name, data: { id } } }),
  ]);
}

export { getRuleRowOrThrow };
