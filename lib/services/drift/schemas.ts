// Drift records as the API shows them and the filters it accepts.
import { z } from "zod";
import { DRIFT_KINDS } from "@/lib/domain/policy";
import { UPSTREAM_STATES } from "@/lib/domain/upstream";
import { itemsOf, nullableTimestamp, timestamp } from "../schemas";

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
    upstream_state: z.enum(UPSTREAM_STATES).meta({ description: "The service's upstream state: anything but ok means upstream drift may be unknown" }),
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
