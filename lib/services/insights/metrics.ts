// Prometheus metrics of one workspace, built per scrape in a registry of its
// own: delivery (the same figures as /api/v1/delivery?window=30d), open
// drift, upstream checks by registry host, agent report age, outbox depth.
import { Counter, Gauge, Registry } from "prom-client";
import { countActiveDriftsByKind } from "@/lib/db/queries/drifts/count-active-drifts-by-kind";
import { listGateDecisionCounts } from "@/lib/db/queries/gate/list-gate-decision-counts";
import { countPendingDeliveries } from "@/lib/db/queries/notifications/count-pending-deliveries";
import { listReportingTargets } from "@/lib/db/queries/targets/list-reporting-targets";
import { listUpstreamHostStats } from "@/lib/db/queries/upstream/list-upstream-host-stats";
import { loadUpstreamCheckStates } from "@/lib/db/queries/upstream/list-upstream-check-states";
import { DRIFT_KINDS } from "@/lib/domain/policy";
import { countUpstreamStates } from "@/lib/domain/upstream";
import { TARGET_STATES, targetStateOf } from "@/lib/domain/quiet";
import { requireRole, workspaceOf, type RequestCtx } from "../context";
import { listServerRegistries } from "../upstream/list-server-registries";
import { nextUpstreamStaleAt, upstreamStatusOf } from "../upstream/status";
import { cachedInsight } from "../cache/insights-cache";
import { getDelivery } from "./delivery";

export const METRICS_DELIVERY_WINDOW = "30d";
const METRICS_TTL_MS = 10_000;

export async function renderMetrics({ ctx }: { ctx: RequestCtx }): Promise<{ text: string; contentType: string }> {
  requireRole(ctx.actor, "viewer");
  const workspaceId = workspaceOf(ctx.actor);
  // Report ages move with the clock: a shorter life than the other insights.
  // Upstream states turn stale by the clock too: then as well.
  const [{ text, contentType }, gate] = await Promise.all([
    cachedInsight(ctx, `${workspaceId}:metrics`, () => buildMetrics(ctx, workspaceId), {
      validUntil: (r, at) => Math.min(at + METRICS_TTL_MS, r.upstreamStaleAt !== null && r.upstreamStaleAt > at ? r.upstreamStaleAt : Number.POSITIVE_INFINITY),
    }),
    gateMetrics(ctx, workspaceId),
  ]);
  return { text: text + gate, contentType };
}

/**
 * Gate decisions, read on every scrape rather than cached: counters are written by
 * every admission review, and noting those writes would empty the insights caches on each.
 */
async function gateMetrics(ctx: RequestCtx, workspaceId: string): Promise<string> {
  const counts = await listGateDecisionCounts(ctx.db, workspaceId);
  if (counts.length === 0) return "";
  const registry = new Registry();
  const decisions = new Counter({ name: "driftwatch_gate_decisions_total", help: "Promotion gate decisions by environment: allowed, refused, or warned (allowed in audit mode with reasons)", labelNames: ["environment", "decision"], registers: [registry] });
  for (const c of counts) decisions.inc({ environment: c.environment, decision: c.decision }, c.count);
  return registry.metrics();
}

async function buildMetrics(ctx: RequestCtx, workspaceId: string): Promise<{ text: string; contentType: string; upstreamStaleAt: number | null }> {
  const now = ctx.now;
  const [delivery, drifts, hosts, targets, pending, registries, checkStates] = await Promise.all([
    getDelivery({ ctx, input: { window: METRICS_DELIVERY_WINDOW } }),
    countActiveDriftsByKind(ctx.db, workspaceId),
    listUpstreamHostStats(ctx.db, workspaceId),
    listReportingTargets(ctx.db, workspaceId),
    countPendingDeliveries(ctx.db, workspaceId),
    listServerRegistries({ ctx }),
    loadUpstreamCheckStates(ctx.db, workspaceId),
  ]);

  const registry = new Registry();
  const gauge = (name: string, help: string, labelNames: string[] = []) => new Gauge({ name, help, labelNames, registers: [registry] });

  const deploys = gauge("driftwatch_deploys", "Versions that arrived in the environment in the last 30 days (first run on any of its targets; rollbacks and re-deploys excluded)", ["environment"]);
  for (const e of delivery.environments) deploys.set({ environment: e.environment }, e.deploys);
  const lead = gauge("driftwatch_lead_time_seconds", "Median lead time of the last 30 days from one environment to the next (no series without samples)", ["from_environment", "to_environment"]);
  const samples = gauge("driftwatch_lead_time_samples", "Versions that made the move in the last 30 days", ["from_environment", "to_environment"]);
  for (const l of delivery.lead_times) {
    const labels = { from_environment: l.from_environment, to_environment: l.to_environment };
    samples.set(labels, l.samples);
    if (l.median_seconds !== null) lead.set(labels, l.median_seconds);
  }

  const open = gauge("driftwatch_open_drifts", "Drift that is open or announced, by kind", ["kind"]);
  const byKind = new Map(drifts.map((d) => [d.kind as string, d._count._all] as const));
  for (const kind of DRIFT_KINDS) open.set({ kind }, byKind.get(kind) ?? 0);

  const repos = gauge("driftwatch_upstream_repositories", "Upstream repositories the workspace's services use, by registry host", ["host"]);
  const mean = gauge("driftwatch_upstream_check_duration_seconds", "Mean duration of the last check of the host's repositories", ["host"]);
  const max = gauge("driftwatch_upstream_check_duration_max_seconds", "Duration of the slowest last check among the host's repositories", ["host"]);
  const failures = gauge("driftwatch_upstream_check_failures", "Consecutive failed checks, summed over the host's repositories", ["host"]);
  const failing = gauge("driftwatch_upstream_repositories_failing", "Repositories of the host whose last check failed", ["host"]);
  for (const h of hosts) {
    const labels = { host: h.host };
    repos.set(labels, h.repositories);
    if (h.mean_ms !== null) mean.set(labels, h.mean_ms / 1000);
    if (h.max_ms !== null) max.set(labels, h.max_ms / 1000);
    failures.set(labels, h.failures);
    failing.set(labels, h.failing);
  }

  const byState = gauge("driftwatch_upstream_repositories_by_state", "Upstream repositories by registry host and state (ok, failed, stale, unchecked)", ["host", "state"]);
  const states = checkStates.map((r) => ({ host: r.host, state: upstreamStatusOf(r, now).state }));
  for (const c of countUpstreamStates(states)) byState.set({ host: c.host, state: c.state }, c.repositories);

  const byTargetState = gauge("driftwatch_targets", "Agent targets by state: reporting, or quiet (no accepted report for longer than DRIFTWATCH_QUIET_AFTER)", ["state"]);
  for (const state of TARGET_STATES) byTargetState.set({ state }, targets.filter((t) => targetStateOf(t.lastReportAt, now, ctx.config.quietAfterMs) === state).length);

  const age = gauge("driftwatch_agent_report_age_seconds", "Seconds since the target's agent last reported", ["target"]);
  for (const t of targets) if (t.lastReportAt) age.set({ target: t.name }, Math.max(0, (now.getTime() - t.lastReportAt.getTime()) / 1000));

  gauge("driftwatch_outbox_pending", "Notification deliveries waiting to be sent").set(pending);

  const pulls = gauge("driftwatch_registry_pulls_total", "Pulls (manifest GETs) the server spent on a rationed registry host, by every process", ["host"]);
  const pullsWindow = gauge("driftwatch_registry_pulls_window", "Pulls the server spent on the host inside its current rate-limit window", ["host"]);
  const remaining = gauge("driftwatch_registry_pull_budget_remaining", "Pulls left on the host in the current window (its own count where it sent one)", ["host"]);
  const limit = gauge("driftwatch_registry_pull_limit", "Pulls the host allows per window", ["host"]);
  for (const r of registries.items) {
    if (!r.rationed) continue;
    pulls.set({ host: r.host }, r.pulls_total);
    pullsWindow.set({ host: r.host }, r.pulls_in_window);
    if (r.remaining !== null) remaining.set({ host: r.host }, r.remaining);
    if (r.limit !== null) limit.set({ host: r.host }, r.limit);
  }

  return { text: await registry.metrics(), contentType: registry.contentType, upstreamStaleAt: nextUpstreamStaleAt(checkStates) };
}
