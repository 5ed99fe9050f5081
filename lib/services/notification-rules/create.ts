// A new notification rule (see rules.ts for who may do what).
import { createAuditEntry } from "@/lib/db/queries/audit/create-audit-entry";
import { createNotificationRule as insertRule } from "@/lib/db/queries/notification-rules/create-notification-rule";
import type { z } from "zod";
import { Prisma } from "@/lib/db/client";
import { ruleFilterSchema } from "@/lib/domain/notifications";
import { actorLabel, requireRole, workspaceOf, type RequestCtx } from "../context";
import { requireAdminFor, toRuleOut, validateConfig, type RuleOut } from "./rules";
import type { createRuleSchema } from "./schemas";

export async function createRule({ ctx, input }: { ctx: RequestCtx; input: z.infer<typeof createRuleSchema> }): Promise<RuleOut> {
  requireRole(ctx.actor, "member");
  const workspaceId = workspaceOf(ctx.actor);
  const allowPrivate = input.allow_private ?? false;
  requireAdminFor(ctx, allowPrivate);
  const config = validateConfig(ctx, input.channel, input.config, allowPrivate, input.events ?? []);
  const filters = ruleFilterSchema.parse(input);
  const row = await ctx.db.$transaction(async (tx) => {
    const created = await insertRule(tx, {
      workspaceId, name: input.name, channel: input.channel, config: config as Prisma.InputJsonValue,
      ...filters, allowPrivate, enabled: input.enabled ?? true, createdAt: ctx.now,
    });
    await createAuditEntry(tx, { workspaceId, actor: actorLabel(ctx.actor), action: "notification_rule.created", subject: input.name, data: { id: created.id, channel: input.channel } });
    return created;
  });
  return toRuleOut(row);
}
