// What ran when, as the API shows it and the filters it accepts.
import { z } from "zod";
import { nullableTimestamp, timestamp } from "../schemas";

export const historyQuerySchema = z.object({
  service: z.string().max(200).optional(),
  environment: z.string().max(100).optional(),
  since: z.iso.datetime({ offset: true }).optional(),
  limit: z.coerce.number().int().min(1).max(10_000).optional(),
});

export const historySchema = z
  .object({
    items: z.array(
      z.object({ service: z.string(), environment: z.string(), target: z.string(), tag: z.string(), version: z.string().nullable(), digest: z.string().nullable(), declared: z.boolean(), from: timestamp, to: nullableTimestamp }),
    ),
  })
  .meta({ id: "History" });
