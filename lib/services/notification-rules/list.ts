// Notification rules: which events go where. Who may do what:
//   - members list, create, change and delete rules whose destinations are public
//     (API tokens carry at most the member role, so automation can manage rules);
//   - `allow_private: true` (loopback and private-network destinations) is an
//     admin's choice, and so is any change to, or removal of, a rule that has it;
//   - e-mail rules need DRIFTWATCH_SMTP_URL on the server.
// Settings are validated with the channel's schema and the destination guard;
// secrets are write-only and come back masked.
import type { z } from "zod";
import type { createRuleSchema, ruleSchema, updateRuleSchema } from "@/lib/services/notification-rules/schemas";
import { CHANNEL_CONFIG_SCHEMAS, type Channel } from "@/lib/adapters/channels";
import { Prisma } from "@/lib/db/client";
import { AppError } from "@/lib/domain/errors";
import { ruleFilterSchema } from "@/lib/domain/notifications";
import { parseDestination } from "@/lib/net/destination";
import { actorLabel, hasRole, requireRole, workspaceOf, type RequestCtx } from "../context";

export type RuleOut = z.infer<typeof ruleSchema>;

type RuleRow = {
  id: string;
  name: string;
  channel: Channel;
  config: unknown;
  events: string[];
  kinds: string[];
  services: string[];
  environments: string[];
  teams: string[];
  allowPrivate: boolean;
  enabled: boolean;
  createdAt: Date;
};

const MASK = "********";

/** `https://hooks.example.com/***`: enough to recognise the destination, nothing that may be a secret. */
function maskUrl(raw: unknown): string {
  if (typeof raw !== "string") return MASK;
  try {
    const url = new URL(raw);
    const hasMore = url.pathname.length > 1 || url.search !== "";
    return `${url.origin}${hasMore ? "/***" : "/"}`;
  } catch {
    return MASK;
  }
}

export function maskConfig(channel: Channel, config: unknown): Record<string, unknown> {
  const c = (config ?? {}) as Record<string, unknown>;
  switch (channel) {
    case "webhook": {
      const headers = (c.headers ?? null) as Record<string, unknown> | null;
      return {
        url: maskUrl(c.url),
        secret: MASK,
        ...(headers ? { headers: Object.fromEntries(Object.keys(headers).map((k) => [k, MASK])) } : {}),
      };
    }
    case "slack":
      return { url: maskUrl(c.url) };
    case "email":
      return { to: Array.isArray(c.to) ? c.to : [] };
  }
}

export function toRuleOut(row: RuleRow): RuleOut {
  return {
    id: row.id,
    name: row.name,
    channel: row.channel,
    config: maskConfig(row.channel, row.config),
    events: row.events as RuleOut["events"],
    kinds: row.kinds as RuleOut["kinds"],
    services: row.services,
    environments: row.environments,
    teams: row.teams,
    allow_private: row.allowPrivate,
    enabled: row.enabled,
    created_at: row.createdAt.toISOString(),
  };
}

/** The channel settings, parsed, with the destination checked without DNS (it is checked again at send time). */
function validateConfig(ctx: RequestCtx, channel: Channel, config: unknown, allowPrivate: boolean): Record<string, unknown> {
  const parsed = CHANNEL_CONFIG_SCHEMAS[channel].safeParse(config);
  if (!parsed.success) {
    const errors = parsed.error.issues.map((i) => ({ pointer: `/config${i.path.map((p) => `/${String(p)}`).join("")}`, detail: i.message }));
    throw new AppError("invalid_input", `The ${channel} settings are invalid.`, { errors });
  }
  const data = parsed.data as Record<string, unknown>;
  if (channel === "email" && !ctx.config.smtpUrl) {
    throw new AppError("invalid_input", "E-mail notifications need DRIFTWATCH_SMTP_URL on the server.", {
      errors: [{ pointer: "/channel", detail: "e-mail is not configured on this server (DRIFTWATCH_SMTP_URL)" }],
    });
  }
  if (typeof data.url === "string") parseDestination(data.url, { allowPrivate, pointer: "/config/url" });
  return data;
}

function requireAdminFor(ctx: RequestCtx, allowPrivate: boolean): void {
  if (allowPrivate && !hasRole(ctx.actor, "admin")) {
    throw new AppError("forbidden", "Only an admin can allow private-network destinations (allow_private), or change a rule that allows them.");
  }
}

async function getRuleRowOrThrow(ctx: RequestCtx, id: string): Promise<RuleRow> {
  const workspaceId = workspaceOf(ctx.actor);
  const row = await ctx.db.notificationRule.findFirst({ where: { id, workspaceId } });
  if (!row) throw new AppError("not_found", "Notification rule not found.");
  return row;
}

export async function listRules({ ctx }: { ctx: RequestCtx }): Promise<{ items: RuleOut[] }> {
  requireRole(ctx.actor, "member");
  const workspaceId = workspaceOf(ctx.actor);
  const rows = await ctx.db.notificationRule.findMany({ where: { workspaceId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return { items: rows.map(toRuleOut) };
}

export async function getRule({ ctx, id }: { ctx: RequestCtx; id: string }): Promise<RuleOut> {
  requireRole(ctx.actor, "member");
  return toRuleOut(await getRuleRowOrThrow(ctx, id));
}

export async function createRule({ ctx, input }: { ctx: RequestCtx; input: z.infer<typeof createRuleSchema> }): Promise<RuleOut> {
  requireRole(ctx.actor, "member");
  const workspaceId = workspaceOf(ctx.actor);
  const allowPrivate = input.allow_private ?? false;
  requireAdminFor(ctx, allowPrivate);
  const config = validateConfig(ctx, input.channel, input.config, allowPrivate);
  const filters = ruleFilterSchema.parse(input);
  const row = await ctx.db.$transaction(async (tx) => {
    const created = await tx.notificationRule.create({
      data: {
        workspaceId, name: input.name, channel: input.channel, config: config as Prisma.InputJsonValue,
        ...filters, allowPrivate, enabled: input.enabled ?? true, createdAt: ctx.now,
      },
    });
    await tx.auditEntry.create({ data: { workspaceId, actor: actorLabel(ctx.actor), action: "notification_rule.created", subject: input.name, data: { id: created.id, channel: input.channel } } });
    return created;
  });
  return toRuleOut(row);
}

export async function updateRule({ ctx, id, input }: { ctx: RequestCtx; id: string; input: z.infer<typeof updateRuleSchema> }): Promise<RuleOut> {
  requireRole(ctx.actor, "member");
  const workspaceId = workspaceOf(ctx.actor);
  const current = await getRuleRowOrThrow(ctx, id);
  const allowPrivate = input.allow_private ?? current.allowPrivate;
  requireAdminFor(ctx, current.allowPrivate || allowPrivate);
  const channel = input.channel ?? current.channel;
  if (input.channel !== undefined && input.channel !== current.channel && input.config === undefined) {
    throw new AppError("invalid_input", "Changing the channel needs new settings.", { errors: [{ pointer: "/config", detail: `give the ${channel} settings` }] });
  }
  // A secret left out of the new settings is kept: it is never shown, so it cannot be sent back.
  const merged = input.config === undefined ? current.config : channel === current.channel ? { ...(current.config as object), ...input.config } : input.config;
  const config = validateConfig(ctx, channel, merged, allowPrivate);
  const filters = ruleFilterSchema.parse({
    events: input.events ?? current.events, kinds: input.kinds ?? current.kinds, services: input.services ?? current.services,
    environments: input.environments ?? current.environments, teams: input.teams ?? current.teams,
  });
  const row = await ctx.db.$transaction(async (tx) => {
    const updated = await tx.notificationRule.update({
      where: { id: current.id },
      data: { name: input.name, channel, config: config as Prisma.InputJsonValue, ...filters, allowPrivate, enabled: input.enabled },
    });
    await tx.auditEntry.create({ data: { workspaceId, actor: actorLabel(ctx.actor), action: "notification_rule.updated", subject: updated.name, data: { id } } });
    return updated;
  });
  return toRuleOut(row);
}

export async function deleteRule({ ctx, id }: { ctx: RequestCtx; id: string }): Promise<void> {
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
