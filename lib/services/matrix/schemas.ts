// The matrix as the API shows it and the filters it accepts.
import { z } from "zod";
import { DRIFT_KINDS } from "@/lib/domain/policy";
import { TARGET_STATES } from "@/lib/domain/quiet";
import { UPSTREAM_STATES } from "@/lib/domain/upstream";
import { nullableTimestamp, timestamp } from "../schemas";

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
    targets: z.array(z.object({
      name: z.string(), tag: z.string(), version: z.string().nullable(), digest: z.string().nullable(), since: timestamp, declared: z.boolean(),
      last_seen_at: nullableTimestamp.meta({ description: "The target's last accepted report" }),
      state: z.enum(TARGET_STATES).meta({ description: "quiet: no accepted report for longer than DRIFTWATCH_QUIET_AFTER, so what it shows may no longer run" }),
    })),
    quiet: z.boolean().meta({ description: "Every target that runs this cell's versions is quiet: what it shows is its last report, not live" }),
    last_seen_at: nullableTimestamp.meta({ description: "The newest last report among the targets that run this cell's versions" }),
    drifts: z.array(z.enum(DRIFT_KINDS)),
    drift_details: z
      .array(
        z.object({
          kind: z.enum(DRIFT_KINDS),
          state: z.enum(["open", "announced"]),
          opened_at: timestamp.meta({ description: "When the difference began according to history" }),
          announced_at: nullableTimestamp,
          running: z.string().nullable(),
          expected: z.string().nullable(),
        }),
      )
      .meta({ description: "Each live drift of the cell: kind, state and dates" }),
    eol: eolSchema.nullable(),
  })
  .meta({ id: "MatrixCell" });

export const upstreamSchema = z
  .object({
    repository: z.string().nullable(),
    newest: z.string().nullable().meta({ description: "Newest release of the running line that the last good check found" }),
    checked_at: nullableTimestamp.meta({ description: "The last successful check" }),
    checked_by: z.enum(["server", "agent"]).nullable(),
    state: z.enum(UPSTREAM_STATES).meta({ description: "ok: the last check succeeded; failed; stale: no success for three check intervals; unchecked" }),
    error: z.string().nullable().meta({ description: "Why, in one line: the failure, the staleness, or what an unchecked repository is waiting for" }),
    quota_wait: z
      .object({
        registry: z.string().meta({ description: "The rationed registry's name (Docker Hub)" }),
        host: z.string(),
        digests: z.number().int().meta({ description: "Running digests of moving tags not looked up yet" }),
        until: z.string().meta({ description: "When they are looked up (the pull window refills then)" }),
      })
      .nullable()
      .optional()
      .meta({ description: "Moving tags whose exact version waits for the registry's pull quota (GET /api/v1/services/{name}); null when none waits" }),
  })
  .meta({ id: "UpstreamStatus" });

export const matrixSummarySchema = z
  .object({
    to_act_on: z.number().int().meta({ description: "Lines of GET /api/v1/updates (`items`)" }),
    open_drifts: z.number().int().meta({ description: "Items of GET /api/v1/drifts with its default filter (not resolved)" }),
    promotions_waiting: z.number().int().meta({ description: "Items of GET /api/v1/promotions" }),
    quiet_targets: z.number().int().meta({ description: "Targets with no accepted report for longer than DRIFTWATCH_QUIET_AFTER" }),
  })
  .meta({ id: "MatrixSummary" });

/** The matrix without its summary: what the pages that show services read. */
export const matrixBodySchema = z
  .object({
    environments: z.array(z.object({ name: z.string(), position: z.number().int(), production: z.boolean() })),
    services: z.array(
      z.object({
        name: z.string(),
        kind: z.enum(["image", "chart"]).meta({ description: "chart: a Helm release's own service (named `chart:<release>`), whose versions are chart versions; image: everything else" }),
        team: z.string().nullable(),
        application: z.string().nullable(),
        upstream: upstreamSchema,
        cells: z.array(matrixCellSchema),
      }),
    ),
    total: z.number().int().meta({ description: "Services matching the filters, before limit/offset" }),
  });

export const matrixSchema = matrixBodySchema
  .extend({ summary: matrixSummarySchema.meta({ description: "The whole workspace's counts, whatever the filters: each equals the number of items its own list gives" }) })
  .meta({ id: "Matrix" });

export const matrixQuerySchema = z.object({
  team: z.string().max(100).optional(),
  environment: z.string().max(100).optional(),
  kind: z.enum(DRIFT_KINDS).optional(),
  q: z.string().max(200).optional().meta({ description: "Service name contains" }),
  limit: z.coerce.number().int().min(1).max(5000).optional(),
  offset: z.coerce.number().int().min(0).optional(),
});
