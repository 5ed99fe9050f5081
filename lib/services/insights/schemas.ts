// Insights (updates, promotions, delivery statistics) as the API shows them.
import { z } from "zod";
import { UPSTREAM_STATES } from "@/lib/domain/upstream";
import { parseDuration } from "@/lib/domain/duration";
import { UPDATE_REASONS } from "@/lib/domain/insights";
import { nullableTimestamp, timestamp } from "../schemas";

// ─── Updates ───────────────────────────────────────────────────────────────

export const updatesQuerySchema = z.object({
  team: z.string().max(100).optional(),
  environment: z.string().max(100).optional(),
  application: z.string().max(200).optional(),
});

export const waitingSchema = z
  .array(z.object({ version: z.string(), until: timestamp.meta({ description: "When it is old enough to alert" }) }))
  .meta({ description: "Newer releases held back by the policy's min_release_age, oldest first" });

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
    reasons: z.array(z.enum(UPDATE_REASONS)).meta({ description: "Every reason not silenced, most urgent first (acknowledged lines: the reasons silenced)" }),
    promote: z
      .object({ from_environment: z.string(), version: z.string() })
      .nullable()
      .meta({ description: "The version the previous environment runs, newer than what runs here: the pipeline's next step" }),
    targets: z
      .array(z.object({ name: z.string(), version: z.string(), moves: z.boolean() }))
      .meta({ description: "The environment's targets with the oldest version each runs; `moves` where it runs something older than the line's next step" }),
    upstream_state: z.enum(UPSTREAM_STATES).meta({ description: "The service's upstream state" }),
    open_since: timestamp.meta({ description: "When the drift behind `reason` opened" }),
    waiting: waitingSchema,
    ack: z
      .object({ id: z.string(), kind: z.enum(["release", "drift"]), until_version: z.string().nullable(), skip_version: z.string().nullable(), expires_at: nullableTimestamp })
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
