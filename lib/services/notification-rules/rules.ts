// Notification rules: which events go where. Who may do what:
//   - members list, create, change and delete rules whose destinations are public
//     (API tokens carry at most the member role, so automation can manage rules);
//   - `allow_private: true` (loopback and private-network destinations) is an
//     admin's choice, and so is any change to, or removal of, a rule that has it;
//   - e-mail rules need DRIFTWATCH_SMTP_URL on the server.
// Settings are validated with the channel's schema (a Shoutrrr address is
// read into it) and the destination guard; secrets are write-only and come
// back masked.
import { getNotificationRule } from "@/lib/db/queries/notification-rules/get-notification-rule";
import type { z } from "zod";
import { channelCarries, channelDefinition, isChannel, parseChannelSettings, type Channel } from "@/lib/adapters/channels";
import type { NotificationEvent } from "@/lib/domain/notifications/payloads";
import { AppError } from "@/lib/domain/errors";
import { parseDestination } from "@/lib/net/destination";
import { hasRole, workspaceOf, type RequestCtx } from "../context";
import type { ruleSchema } from "./schemas";

export type RuleOut = z.infer<typeof ruleSchema>;

export type RuleRow = {
  id: string;
  name: string;
  /** A kind of the channel table (stored as text). */
  channel: string;
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

/** The settings with every secret masked, by the channel's own rule. */
export function maskConfig(channel: string, config: unknown): Record<string, unknown> {
  const c = config && typeof config === "object" ? (config as Record<string, unknown>) : {};
  // A kind this version does not know shows nothing: it cannot tell which values are secret.
  return isChannel(channel) ? channelDefinition(channel).mask(c) : {};
}

export function toRuleOut(row: RuleRow): RuleOut {
  return {
    id: row.id,
    name: row.name,
    channel: row.channel as Channel,
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

/**
 * The channel settings, parsed (a Shoutrrr address becomes the channel's own settings), with every
 * destination checked without DNS (it is checked again at send time), and the events the channel can carry.
 */
export function validateConfig(ctx: RequestCtx, channel: Channel, config: unknown, allowPrivate: boolean, events: readonly string[] = []): Record<string, unknown> {
  const parsed = parseChannelSettings(channel, config);
  if (!parsed.ok) {
    throw new AppError("invalid_input", `The ${channel} settings are invalid.`, { errors: parsed.problems });
  }
  const def = channelDefinition(channel);
  if (def.needsSmtp && !ctx.config.smtpUrl) {
    throw new AppError("invalid_input", "E-mail notifications need DRIFTWATCH_SMTP_URL on the server.", {
      errors: [{ pointer: "/channel", detail: "e-mail is not configured on this server (DRIFTWATCH_SMTP_URL)" }],
    });
  }
  const refused = events.filter((e) => !channelCarries(channel, e as NotificationEvent));
  if (refused.length > 0) {
    throw new AppError("invalid_input", `A ${channel} rule cannot carry ${refused.join(", ")}.`, {
      errors: [{ pointer: "/events", detail: `${channel} carries ${(def.events ?? []).join(" and ")} only` }],
    });
  }
  for (const d of def.destinations(parsed.settings)) {
    parseDestination(d.url, { allowPrivate, pointer: d.pointer, schemes: d.schemes, allowCredentials: d.allowCredentials });
  }
  return parsed.settings;
}

export function requireAdminFor(ctx: RequestCtx, allowPrivate: boolean): void {
  if (allowPrivate && !hasRole(ctx.actor, "admin")) {
    throw new AppError("forbidden", "Only an admin can allow private-network destinations (allow_private), or change a rule that allows them.");
  }
}

export async function getRuleRowOrThrow(ctx: RequestCtx, id: string): Promise<RuleRow> {
  const workspaceId = workspaceOf(ctx.actor);
  const row = await getNotificationRule(ctx.db, workspaceId, id);
  if (!row) throw new AppError("not_found", "Notification rule not found.");
  return row;
}
