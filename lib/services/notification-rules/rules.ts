// Notification rules: which events go where. Who may do what:
//   - members list, create, change and delete rules whose destinations are public
//     (API tokens carry at most the member role, so automation can manage rules);
//   - `allow_private: true` (loopback and private-network destinations) is an
//     admin's choice, and so is any change to, or removal of, a rule that has it;
//   - e-mail rules need DRIFTWATCH_SMTP_URL on the server.
// Settings are validated with the channel's schema and the destination guard;
// secrets are write-only and come back masked.
import { getNotificationRule } from "@/lib/db/queries/notification-rules/get-notification-rule";
import type { z } from "zod";
import { CHANNEL_CONFIG_SCHEMAS, type Channel } from "@/lib/adapters/channels";
import { AppError } from "@/lib/domain/errors";
import { parseDestination } from "@/lib/net/destination";
import { hasRole, workspaceOf, type RequestCtx } from "../context";
import type { ruleSchema } from "./schemas";

export type RuleOut = z.infer<typeof ruleSchema>;

export type RuleRow = {
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
export function validateConfig(ctx: RequestCtx, channel: Channel, config: unknown, allowPrivate: boolean): Record<string, unknown> {
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
