import { z } from "zod";
import { parseDuration } from "@/lib/domain/duration";
import { UPDATE_REASONS } from "@/lib/domain/insights";
import { nullableTimestamp, timestamp } from "./common";

// ─── Updates ───────────────────────────────────────────────────────────────

export const updatesQuerySchema = z.object({
  team: z.string().max(100).optional(),
  environment: z.string().max(100).optional(),
  application: z.string().max(200).optional(),
});

export const updateLineSchema = z
  .object({
    service: z.string(),
    application: z.string().nullable(),
    team: z.string().nullable(),
    environment: z.string(),
    production: z.boolean(),
    running: z.string().meta({ description: "The oldest version running there: the one a move replaces everywhere" }),
    target_version: z.string().nullable().meta({ description: "The newest release the policy alerts on, else the newest release of the running line" }),
    release_notes_url: z.string().nullable(),
    reason: z.enum(UPDATE_REASONS).meta({ description: "The most urgent reason among the line's open drifts" }),
    open_since: timestamp,
    ack: z
      .object({ id: z.string(), kind: z.enum(["release", "drift"]), until_version: z.string().nullable(), expires_at: nullableTimestamp })
      .nullable()
      .meta({ description: "The acknowledgement that puts the line off (only under `acknowledged`)" }),
  })
  .meta({ id: "UpdateLine" });

export const updatesSchema = z
  .object({ items: z.array(updateLineSchema), acknowledged: z.array(updateLineSchema) })
  .meta({ id: "Updates" });

// ─── Promotions ────────────────────────────────────────────────────────────

export const promotionsSchema = z
  .object({
    items: z.array(
      z.object({
        service: z.string(),
        from_environment: z.string(),
        to_environment: z.string(),
        from_version: z.string().meta({ description: "The oldest version running in to_environment" }),
        to_version: z.string().meta({ description: "The newest version running in from_environment, waiting to move on" }),
        waiting_since: timestamp,
        waiting_seconds: z.number().int().min(0),
        releases: z.array(z.object({ version: z.string(), published_at: nullableTimestamp, release_notes_url: z.string().nullable() })),
      }),
    ),
  })
  .meta({ id: "Promotions" });

// ─── Delivery ──────────────────────────────────────────────────────────────

export const DEFAULT_DELIVERY_WINDOW = "30d";
export const MAX_DELIVERY_WINDOW_MS = 365 * 86_400_000;

/** Milliseconds of a delivery window, or null when it is not a duration of at most 365 days. */
export function deliveryWindowMs(window: string): number | null {
  const ms = parseDuration(window);
  return ms !== null && ms <= MAX_DELIVERY_WINDOW_MS ? ms : null;
}

export const deliveryQuerySchema = z.object({
  window: z
    .string()
    .max(32)
    .default(DEFAULT_DELIVERY_WINDOW)
    .refine((w) => deliveryWindowMs(w) !== null, { message: "must be a duration such as 7d, 30d or 12w, at most 365d" })
    .meta({ description: "How far back from now, e.g. `30d` (the default); at most `365d`" }),
});

export const deliverySchema = z
  .object({
    window: z.string().meta({ description: "The window as a duration, e.g. `30d`" }),
    from: timestamp,
    to: timestamp,
    environments: z.array(z.object({ environment: z.string(), deploys: z.number().int().min(0) })),
    lead_times: z.array(
      z.object({
        from_environment: z.string(),
        to_environment: z.string(),
        median_seconds: z.number().int().nullable().meta({ description: "null when no version made this move in the window" }),
        samples: z.number().int().min(0),
      }),
    ),
  })
  .meta({ id: "DeliveryStats" });

export const DELIVERY_DESCRIPTION = [
  "Delivery statistics over the window `[from, to)` ending now, computed from what ran when (agent reports), never from CI.",
  "",
  "- **Deploys**: a version *arrives* in an environment the first time it runs on any target of that environment. `deploys` counts the versions that arrived within the window. Rollbacks and re-deploys of a version that has run there before are not arrivals; neither are Compose files in Git (declarations) or moving tags that were never resolved to an exact version.",
  "- **Lead time**: pairs a version's arrival in one environment with the same version's arrival in the next environment in pipeline order, and counts in the window of the later arrival. A version that skipped an environment gives no sample for either pair around it; a version that reached the later environment first gives none either.",
  "- `median_seconds` is the median of the samples (the mean of the two middle ones for an even count), in whole seconds; null without samples.",
  "",
  "`/metrics` exposes the 30-day figures as `driftwatch_deploys{environment}` and `driftwatch_lead_time_seconds{from_environment,to_environment}`.",
].join("\n");
