// Notification rules as the API accepts and shows them, and a test send's outcome.
import { z } from "zod";
import { CHANNELS } from "@/lib/adapters/channels/table";
import { NOTIFICATION_EVENTS } from "@/lib/domain/notifications/payloads";
import { DRIFT_KINDS } from "@/lib/domain/policy";
import { itemsOf, timestamp } from "../schemas";

const driftKind = z.enum(DRIFT_KINDS);

const filterNames = z.array(z.string().min(1).max(200)).max(100);

const ruleFields = {
  name: z.string().trim().min(1).max(100),
  channel: z.enum(CHANNELS),
  config: z.record(z.string(), z.unknown()).meta({
    description:
      "webhook: {url, secret (16+ characters, signs X-Driftwatch-Signature), headers?}; slack: {url}; email: {to: [addresses]}; teams: {url} (a Workflows webhook); discord: {url}; telegram: {token, chat_id, api_url?}; ntfy: {url (server and topic), token? | username?+password?}; gotify: {url, token}; matrix: {homeserver, room_id, access_token}; mqtt: {url (mqtt:// or mqtts://), topic, retain?}; pagerduty: {routing_key, events_url?}. discord, telegram, ntfy, gotify, teams and matrix also take {url} as a Shoutrrr address (discord://token@id, telegram://token@telegram?chats=…, …). Secrets are never shown again.",
  }),
  events: z.array(z.enum(NOTIFICATION_EVENTS)).max(NOTIFICATION_EVENTS.length).meta({ description: "Empty: drift_detected and drift_resolved; upgrade_plan and gate_refused reach only rules that name them" }),
  kinds: z.array(driftKind).max(DRIFT_KINDS.length),
  services: filterNames,
  environments: filterNames,
  teams: filterNames,
  allow_private: z.boolean().meta({ description: "Deliver to loopback and private addresses; only an admin can set it" }),
  enabled: z.boolean(),
};

export const createRuleSchema = z
  .object({
    name: ruleFields.name,
    channel: ruleFields.channel,
    config: ruleFields.config,
    events: ruleFields.events.optional(),
    kinds: ruleFields.kinds.optional(),
    services: ruleFields.services.optional(),
    environments: ruleFields.environments.optional(),
    teams: ruleFields.teams.optional(),
    allow_private: ruleFields.allow_private.optional(),
    enabled: ruleFields.enabled.optional(),
  })
  .strict()
  .meta({ id: "CreateNotificationRule" });

export const updateRuleSchema = z
  .object({
    name: ruleFields.name.optional(),
    channel: ruleFields.channel.optional(),
    config: ruleFields.config.optional().meta({ description: "Merged into the stored settings: a secret left out is kept" }),
    events: ruleFields.events.optional(),
    kinds: ruleFields.kinds.optional(),
    services: ruleFields.services.optional(),
    environments: ruleFields.environments.optional(),
    teams: ruleFields.teams.optional(),
    allow_private: ruleFields.allow_private.optional(),
    enabled: ruleFields.enabled.optional(),
  })
  .strict()
  .meta({ id: "UpdateNotificationRule" });

export const ruleSchema = z
  .object({
    id: z.uuid(),
    ...ruleFields,
    config: z.record(z.string(), z.unknown()).meta({ description: "Settings with secrets masked" }),
    created_at: timestamp,
  })
  .meta({ id: "NotificationRule" });

export const ruleListSchema = itemsOf(ruleSchema).meta({ id: "NotificationRuleList" });

export const testSendSchema = z
  .object({
    delivered: z.boolean(),
    error: z.string().nullable(),
    warning: z.string().nullable(),
  })
  .meta({ id: "NotificationTestResult" });
