// Deleting a notification rule; one that allows private destinations only an admin.
import { createAuditEntry } from "@/lib/db/queries/audit/create-audit-entry";
import { deleteNotificationRule } from "@/lib/db/queries/notification-rules/delete-notification-rule";
import { actorLabel, requireRole, workspaceOf, type RequestCtx } from "../context";
import { getRuleRowOrThrow, requireAdminFor } from "./rules";

export async function deleteRule({ ctx, input: { id } }: { ctx: RequestCtx; input: { id: string } }): Promise<void> {
  requireRole(ctx.actor, "member");
  const workspaceId = workspaceOf(ctx.actor);
  const current = await getRuleRowOrThrow(ctx, id);
  requireAdminFor(ctx, current.allowPrivate);
  await ctx.db.$transaction(async (tx) => {
    await deleteNotificationRule(tx, current.id);
    await createAuditEntry(tx, { workspaceId, actor: actorLabel(ctx.actor), action: "notification_rule.deleted", subject: current.name, data: { id } });
  });
}

export { getRuleRowOrThrow };
