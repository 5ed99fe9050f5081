// A notification rule's changes; settings merge into the stored ones, so a
// secret left out is kept.
import { createAuditEntry } from "@/lib/db/queries/audit/create-audit-entry";
import { updateNotificationRule as writeRule } from "@/lib/db/queries/notification-rules/update-notification-rule";
import type { z } from "zod";
import { Prisma } from "@/lib/db/client";
import { isChannel } from "@/lib/adapters/channels";
import { AppError } from "@/lib/domain/errors";
import { ruleFilterSchema } from "@/lib/domain/notifications";
import { actorLabel, requireRole, workspaceOf, type RequestCtx } from "../context";
import { getRuleRowOrThrow, requireAdminFor, toRuleOut, validateConfig, type RuleOut } from "./rules";
import type { updateRuleSchema } from "./schemas";

export async function updateRule({ ctx, input: { id, ...input } }: { ctx: RequestCtx; input: { id: string } & z.infer<typeof updateRuleSchema> }): Promise<RuleOut> {
  requireRole(ctx.actor, "member");
  const workspaceId = workspaceOf(ctx.actor);
  const current = await getRuleRowOrThrow(ctx, id);
  const allowPrivate = input.allow_private ?? current.allowPrivate;
  requireAdminFor(ctx, current.allowPrivate || allowPrivate);
  const channel = input.channel ?? current.channel;
  if (!isChannel(channel)) throw new AppError("invalid_input", "This rule's channel is not known to this version.", { errors: [{ pointer: "/channel", detail: "choose a channel" }] });
  if (input.channel !== undefined && input.channel !== current.channel && input.config === undefined) {
    throw new AppError("invalid_input", "Changing the channel needs new settings.", { errors: [{ pointer: "/config", detail: `give the ${channel} settings` }] });
  }
  // A secret left out of the new settings is kept: it is never shown, so it cannot be sent back.
  const merged = input.config === undefined ? current.config : channel === current.channel ? { ...(current.config as object), ...input.config } : input.config;
  const config = validateConfig(ctx, channel, merged, allowPrivate, input.events ?? current.events);
  const filters = ruleFilterSchema.parse({
    events: input.events ?? current.events, kinds: input.kinds ?? current.kinds, services: input.services ?? current.services,
    environments: input.environments ?? current.environments, teams: input.teams ?? current.teams,
  });
  const row = await ctx.db.$transaction(async (tx) => {
    const updated = await writeRule(tx, current.id, { name: input.name, channel, config: config as Prisma.InputJsonValue, ...filters, allowPrivate, enabled: input.enabled });
    await createAuditEntry(tx, { workspaceId, actor: actorLabel(ctx.actor), action: "notification_rule.updated", subject: updated.name, data: { id } });
    return updated;
  });
  return toRuleOut(row);
}
