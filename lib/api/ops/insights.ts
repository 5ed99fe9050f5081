import { z } from "zod";
import { defineOperation } from "../operation";
import { DELIVERY_DESCRIPTION, deliveryQuerySchema, deliverySchema, promotionsSchema, updatesQuerySchema, updatesSchema } from "../schemas/insights";

export const insightsOps = {
  listUpdates: defineOperation({
    id: "listUpdates", method: "GET", path: "/api/v1/updates", summary: "The updates list: what to upgrade, most urgent first", tags: ["insights"], auth: "viewer",
    description: [
      "One line per service and environment with open `eol`, `upstream` or `env` drift, with the most urgent reason.",
      "Order: eol_passed, eol_soon, major, minor, behind_previous_env, patch; within a reason production first, then the longest open first.",
      "`running` is the oldest version running there; `target_version` is the newest release the policy alerts on, else the newest release of the running line; `release_notes_url` comes from the forge release, else the policy's `changelog` template.",
      "Lines whose every drift is silenced by an active acknowledgement (put off) are listed apart under `acknowledged`.",
    ].join("\n"),
    query: updatesQuerySchema,
    responses: { 200: { description: "The updates list", schema: updatesSchema } },
  }),
  listPromotions: defineOperation({
    id: "listPromotions", method: "GET", path: "/api/v1/promotions", summary: "Versions waiting for promotion to the next environment", tags: ["insights"], auth: "viewer",
    description: [
      "Every version that runs in one environment while the next environment in pipeline order (among those that run the service) runs an older one, longest waiting first.",
      "`from_version` is the oldest version running in `to_environment`, `to_version` the newest running in `from_environment`; `waiting_since` is when `to_version` began running there.",
      "`releases` lists every release after `from_version` up to and including `to_version`, with its publication date and notes where the forge has them.",
    ].join("\n"),
    responses: { 200: { description: "Promotion candidates", schema: promotionsSchema } },
  }),
  getDelivery: defineOperation({
    id: "getDelivery", method: "GET", path: "/api/v1/delivery", summary: "Deploys per environment and lead times between environments", tags: ["insights"], auth: "viewer",
    description: DELIVERY_DESCRIPTION,
    query: deliveryQuerySchema,
    responses: { 200: { description: "Delivery statistics", schema: deliverySchema } },
  }),
  getMetrics: defineOperation({
    id: "getMetrics", method: "GET", path: "/metrics", summary: "Prometheus metrics of the token's workspace", tags: ["insights"], auth: "viewer",
    description: [
      "Prometheus text exposition format (`text/plain; version=0.0.4`), for the workspace of the token (or session).",
      "`driftwatch_deploys{environment}` and `driftwatch_lead_time_seconds{from_environment,to_environment}` are the 30-day figures of `GET /api/v1/delivery?window=30d` (a pair without samples has no lead-time series; `driftwatch_lead_time_samples` gives the counts).",
      "Also: `driftwatch_open_drifts{kind}`, upstream checks by registry host (`driftwatch_upstream_repositories`, `driftwatch_upstream_check_duration_seconds`, `driftwatch_upstream_check_failures`, `driftwatch_upstream_repositories_failing`), `driftwatch_agent_report_age_seconds{target}` and `driftwatch_outbox_pending`.",
    ].join("\n"),
    responses: { 200: { description: "Metrics", contentType: "text/plain", schema: z.string() } },
  }),
};
