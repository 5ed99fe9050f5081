// Services as the API accepts and shows them.
import { z } from "zod";
import { policySchema } from "@/lib/domain/policy";
import { nameSchema, itemsOf, nullableTimestamp } from "../schemas";
import { upstreamSchema } from "../matrix/schemas";
import { waitingSchema } from "../insights/schemas";

export const policyOut = z.record(z.string(), z.unknown()).meta({ id: "Policy", description: "The policy in effect (see policy_source)" });

export const serviceSchema = z
  .object({
    name: z.string(),
    team: z.string().nullable(),
    application: z.string().nullable(),
    repository: z.string().nullable().meta({ description: "Upstream repository, normalised (docker.io/library/nginx)" }),
    repository_source: z.enum(["policy", "image"]).nullable(),
    policy: policyOut,
    policy_source: z.enum(["service", "catalog", "default"]),
    release_source: z.object({
      kind: z.enum(["github", "gitlab"]).nullable(),
      repository: z.string().nullable(),
      from: z.enum(["policy", "catalog", "image_label"]).nullable(),
    }),
    checked_by: z.enum(["server", "agent"]).nullable(),
    last_check: z.object({ at: nullableTimestamp, error: z.string().nullable() }),
    upstream: upstreamSchema.extend({ waiting: waitingSchema }).meta({ id: "ServiceUpstream" }),
  })
  .meta({ id: "Service" });

export const serviceListSchema = itemsOf(serviceSchema).meta({ id: "ServiceList" });

const repositoryInput = z
  .string()
  .max(300)
  .regex(/^[a-z0-9.-]+(?::\d{1,5})?\/[a-z0-9._/-]+$|^[a-z0-9._/-]+$/, { message: "must be an image repository such as ghcr.io/org/app or nginx" });

export const updateServiceSchema = z
  .object({
    team: z.string().trim().min(1).max(100).nullable().optional(),
    application: z.string().trim().min(1).max(200).nullable().optional(),
    repository: repositoryInput.nullable().optional(),
    policy: z
      .record(z.string(), z.unknown())
      .nullable()
      .optional()
      .meta({ description: "Fields to merge into the service's policy; a field set to null is removed; null removes the whole policy" }),
  })
  .strict()
  .meta({ id: "UpdateService" });

export const createServiceSchema = z
  .object({
    name: nameSchema,
    team: z.string().trim().min(1).max(100).optional(),
    application: z.string().trim().min(1).max(200).optional(),
    repository: repositoryInput.optional(),
    policy: policySchema.optional(),
  })
  .strict()
  .meta({ id: "CreateService" });
