// A rule's deliveries as the API shows them.
import { z } from "zod";
import { itemsOf, nullableTimestamp, timestamp } from "../schemas";

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
