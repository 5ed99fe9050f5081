import { z } from "zod";
import { DRIFT_KINDS } from "@/lib/domain/policy";
import { nullableTimestamp, timestamp } from "./common";

export const eolSchema = z
  .object({ product: z.string(), cycle: z.string(), eol_date: z.string().nullable().meta({ description: "YYYY-MM-DD" }), state: z.enum(["ok", "soon", "passed"]) })
  .meta({ id: "EolStatus" });

export const matrixCellSchema = z
  .object({
    environment: z.string(),
    tag: z.string().meta({ description: "The running tag (the oldest where several versions run)" }),
    version: z.string().nullable().meta({ description: "Exact version: a resolved moving tag gives its match; unresolved gives null" }),
    display: z.string().meta({ description: "`<tag> = <exact_version>` for a resolved moving tag, else the tag" }),
    declared: z.boolean().meta({ description: "True where the cell comes from Compose files in Git only" }),
    targets: z.array(z.object({ name: z.string(), tag: z.string(), version: z.string().nullable(), digest: z.string().nullable(), since: timestamp, declared: z.boolean() })),
    drifts: z.array(z.enum(DRIFT_KINDS)),
    eol: eolSchema.nullable(),
  })
  .meta({ id: "MatrixCell" });

export const matrixSchema = z
  .object({
    environments: z.array(z.object({ name: z.string(), position: z.number().int(), production: z.boolean() })),
    services: z.array(
      z.object({
        name: z.string(),
        team: z.string().nullable(),
        application: z.string().nullable(),
        upstream: z.object({ repository: z.string().nullable(), newest: z.string().nullable(), checked_at: nullableTimestamp, checked_by: z.enum(["server", "agent"]).nullable() }),
        cells: z.array(matrixCellSchema),
      }),
    ),
    total: z.number().int().meta({ description: "Services matching the filters, before limit/offset" }),
  })
  .meta({ id: "Matrix" });

export const matrixQuerySchema = z.object({
  team: z.string().max(100).optional(),
  environment: z.string().max(100).optional(),
  kind: z.enum(DRIFT_KINDS).optional(),
  q: z.string().max(200).optional().meta({ description: "Service name contains" }),
  limit: z.coerce.number().int().min(1).max(5000).optional(),
  offset: z.coerce.number().int().min(0).optional(),
});

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

export const targetSchema = z
  .object({
    name: z.string(),
    kind: z.enum(["docker", "kubernetes", "swarm", "nomad", "compose_git"]),
    environment: z.string(),
    repository_url: z.string().nullable(),
    branch: z.string().nullable(),
    paths: z.array(z.string()),
    last_report_at: nullableTimestamp,
    last_observed_at: nullableTimestamp,
    last_commit: z.string().nullable(),
    last_error: z.string().nullable(),
    workloads: z.number().int(),
  })
  .meta({ id: "Target" });

export const targetListSchema = z.object({ items: z.array(targetSchema) }).meta({ id: "TargetList" });

export const createComposeTargetSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:@+-]{0,199}$/).optional(),
    environment: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:@+-]{0,99}$/),
    kind: z.literal("compose_git"),
    repository_url: z.string().min(1).max(1000),
    branch: z
      .string()
      .min(1)
      .max(200)
      // A branch name git accepts (check-ref-format): no "..", no leading "-" or "/", no "//", not ending in "/", "." or ".lock".
      .regex(/^(?![-/.])(?!.*\.\.)(?!.*\/\/)(?!.*\/\.)(?!.*[/.]$)(?!.*\.lock$)[A-Za-z0-9._/-]+$/, { message: "must be a branch name such as main or release/1.2" })
      .default("main"),
    paths: z.array(z.string().min(1).max(500).regex(/^(?!\/)(?!.*\.\.)[A-Za-z0-9._/ -]+$/, { message: "must be a relative path inside the repository" })).min(1).max(20),
  })
  .strict()
  .meta({ id: "CreateComposeTarget" });
