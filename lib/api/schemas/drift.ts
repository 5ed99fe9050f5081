// Drift records, acknowledgements, notification rules and their deliveries,
// as the API shows and accepts them.
import { z } from "zod";
import { CHANNELS } from "@/lib/adapters/channels/config";
import { parseDuration } from "@/lib/domain/duration";
import { NOTIFICATION_EVENTS } from "@/lib/domain/notifications/payloads";
import { DRIFT_KINDS } from "@/lib/domain/policy";
import { itemsOf, nameSchema, nullableTimestamp, queryBoolean, timestamp } from "./common";

const driftKind = z.enum(DRIFT_KINDS);
const driftState = z.enum(["open", "announced", "resolved"]);

// ─── Drifts ────────────────────────────────────────────────────────────────

export const driftSchema = z
  .object({
    id: z.uuid(),
    service: z.string(),
    environment: z.string(),
    target: z.string().nullable().meta({ description: "Set where a single target alone differs" }),
    kind: driftKind,
    state: driftState,
    running: z.string().nullable(),
    expected: z.string().nullable(),
    opened_at: timestamp.meta({ description: "When the difference began according to history" }),
    announced_at: nullableTimestamp,
    resolved_at: nullableTimestamp,
    silenced: z.boolean().meta({ description: "An active acknowledgement quiets its notifications" }),
  })
  .meta({ id: "Drift" });

export const driftListSchema = itemsOf(driftSchema).meta({ id: "DriftList" });

export const driftQuerySchema = z.object({
  state: driftState.optional().meta({ description: "Default: open and announced (not resolved)" }),
  kind: driftKind.optional(),
  service: z.string().max(200).optional(),
  environment: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(10_000).optional().meta({ description: "At most this many, newest first" }),
});

// ─── Acknowledgements ──────────────────────────────────────────────────────

const durationInput = z
  .string()
  .max(32)
  .refine((v) => parseDuration(v) !== null, { message: "must be a duration such as 15m, 72h or 30d" })
  .refine((v) => (parseDuration(v) ?? 0) <= 366 * 86_400_000, { message: "must be at most 366d" });

export const createAckSchema = z
  .object({
    service: nameSchema,
    kind: z.enum(["release", "drift"]),
    until_version: z.string().trim().min(1).max(128).optional(),
    environment: nameSchema.optional(),
    duration: durationInput.optional(),
  })
  .strict()
  .meta({
    id: "CreateAck",
    description:
      "`release` quiets upstream and eol drift until a version at or above `until_version` runs, or `duration` passes (give at least one). `drift` quiets every kind for `duration` (required; `until_version` is refused).",
  });

export const ackSchema = z
  .object({
    id: z.uuid(),
    service: z.string(),
    kind: z.enum(["release", "drift"]),
    until_version: z.string().nullable(),
    environment: z.string().nullable(),
    expires_at: nullableTimestamp,
    created_at: timestamp,
    lifted_at: nullableTimestamp.meta({ description: "When a version at or above until_version started to run" }),
    active: z.boolean().meta({ description: "Not expired and not lifted" }),
    created_by: z.string().nullable(),
  })
  .meta({ id: "Ack" });

export const ackListSchema = itemsOf(ackSchema).meta({ id: "AckList" });

export const ackQuerySchema = z.object({
  active: queryBoolean.optional().meta({ description: "true: only acknowledgements in force; false: only expired or lifted ones" }),
  service: z.string().max(200).optional(),
});

// ─── Notification rules ────────────────────────────────────────────────────

const filterNames = z.array(z.string().min(1).max(200)).max(100);

const ruleFields = {
  name: z.string().trim().min(1).max(100),
  channel: z.enum(CHANNELS),
  config: z.record(z.string(), z.unknown()).meta({
    description:
      "webhook: {url, secret (16+ characters, signs X-Driftwatch-Signature), headers?}; slack: {url}; email: {to: [addresses]}. Secrets are never shown again.",
  }),
  events: z.array(z.enum(NOTIFICATION_EVENTS)).max(NOTIFICATION_EVENTS.length).meta({ description: "Empty: drift_detected and drift_resolved" }),
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

export const deliverySchema = z
  .object({
    id: z.uuid().meta({ description: "Also sent as X-Driftwatch-Delivery" }),
    event_id: z.uuid(),
    event: z.string(),
    summary: z.string().meta({ description: "What the event was about" }),
    state: z.enum(["pending", "sent", "failed"]),
    attempts: z.number().int(),
    next_attempt_at: nullableTimestamp,
    last_error: z.string().nullable(),
    sent_at: nullableTimestamp,
    created_at: timestamp,
  })
  .meta({ id: "Delivery" });

export const deliveryListSchema = itemsOf(deliverySchema).meta({ id: "DeliveryList" });

export const deliveryQuerySchema = z.object({
  state: z.enum(["pending", "sent", "failed"]).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});
