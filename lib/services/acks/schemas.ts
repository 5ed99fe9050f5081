// Acknowledgements as the API accepts and shows them.
import { z } from "zod";
import { parseDuration } from "@/lib/domain/duration";
import { itemsOf, nameSchema, nullableTimestamp, queryBoolean, timestamp } from "../schemas";

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
    skip_version: z.string().trim().min(1).max(128).optional(),
    environment: nameSchema.optional(),
    duration: durationInput.optional(),
  })
  .strict()
  .meta({
    id: "CreateAck",
    description:
      "`release` quiets upstream, eol and env drift whose move goes no further than `until_version`, until a version at or above it runs, or `duration` passes; with `skip_version` instead, while no release newer than it is out that the policy alerts on (give at least one of the three). `drift` quiets every kind for `duration` (required; `until_version` is refused).",
  });

export const ackSchema = z
  .object({
    id: z.uuid(),
    service: z.string(),
    kind: z.enum(["release", "drift"]),
    until_version: z.string().nullable(),
    skip_version: z.string().nullable().meta({ description: "Skipped release: silenced while no newer release the policy alerts on is out" }),
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
