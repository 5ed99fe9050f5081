export * from "@/lib/services/insights/schemas";

export const DELIVERY_DESCRIPTION = [
  "Delivery statistics over the window `[from, to)` ending now, computed from what ran when (agent reports), never from CI.",
  "",
  "- **Deploys**: a version *arrives* in an environment the first time it runs on any target of that environment. `deploys` counts the versions that arrived within the window. Rollbacks and re-deploys of a version that has run there before are not arrivals; neither are Compose files in Git (declarations) or moving tags that were never resolved to an exact version.",
  "- **Lead time**: pairs a version's arrival in one environment with the same version's arrival in the next environment in pipeline order, and counts in the window of the later arrival. A version that skipped an environment gives no sample for either pair around it; a version that reached the later environment first gives none either.",
  "- `median_seconds` is the median of the samples (the mean of the two middle ones for an even count), in whole seconds; null without samples.",
  "",
  "`/metrics` exposes the 30-day figures as `driftwatch_deploys{environment}` and `driftwatch_lead_time_seconds{from_environment,to_environment}`.",
].join("\n");
