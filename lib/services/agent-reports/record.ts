// Report intake: an agent's report is the whole current state of one target. The rules are in
// lib/domain/intake/plan.ts; this reads the target, plans, and writes, retrying when reports race.
import { withoutUserinfo, type AgentReport } from "@/lib/domain/agent-report";
import { sqlStateOf } from "@/lib/db/errors";
import { applyReport, repositoriesCteSql, targetLockedSql } from "@/lib/db/queries/intake/apply-report";
import { ensureReportTarget, type ReportInput, type ReportTarget } from "@/lib/db/queries/intake/ensure-report-target";
import { listLastClosedRuns } from "@/lib/db/queries/intake/list-last-closed-runs";
import { planReport, reportChange } from "@/lib/domain/intake/plan";
import { reportFingerprint, runRepositoryOf } from "@/lib/domain/intake/report";
import { requireReporter, type RequestCtx } from "../context";
import { requestWorkspaceDrift } from "../drift/evaluate-workspace";
import { recordRegistryResults } from "./record-registry-results";
import { resolveChartRows } from "./resolve-chart-rows";
import { upstreamRepositoriesInsert } from "../upstream/ensure-repositories";

export type ReportOutcome = {
  accepted: true;
  target: string;
  environment: string;
  /** false when the report was stale or repeated what the last one said. */
  changed: boolean;
  ignored: "stale" | null;
  opened: number;
  closed: number;
};

/** `evaluateDrift: false` stores the report only (bulk loads evaluate once at the end). */
export async function recordAgentReport({ ctx, input, evaluateDrift = true }: { ctx: RequestCtx; input: AgentReport; evaluateDrift?: boolean }): Promise<ReportOutcome> {
  const { workspaceId, agentKeyId } = requireReporter(ctx.actor);
  const source = input.target.source;
  // A token the agent clones with may sit in the URL; only the address is kept.
  const report = source ? { ...input, target: { ...input.target, source: { ...source, repository_url: withoutUserinfo(source.repository_url) } } } : input;
  // The repositories its main containers run are registered with the history it opens, in the same statement.
  const resolved = await resolveChartRows(ctx.db, workspaceId, report, ctx.config.serverRegistries);
  const outcome = await applyTargetReport(ctx, workspaceId, resolved, agentKeyId, { serverRegistries: ctx.config.serverRegistries });
  if (report.registry_results.length && outcome.ignored === null) {
    await recordRegistryResults({ ctx, input: { workspaceId, results: report.registry_results } });
  }
  // Drift follows what the report changed, evaluated right after it and shared by a burst of reports;
  // the 202 does not wait for it (reads in this process do: see driftSettled).
  if (evaluateDrift && (outcome.changed || (report.registry_results.length > 0 && outcome.ignored === null))) {
    requestWorkspaceDrift({ ctx: { db: ctx.db, config: ctx.config, now: ctx.now }, input: { workspaceId: workspaceId } });
  }
  return outcome;
}

/** Reads and writes of one report are retried from the start when another report for the target came between them. */
const MAX_ATTEMPTS = 50;

/**
 * Apply one target's whole current state to history. Used for agent reports and for Compose files the
 * server reads from Git (`agentKeyId` null). `serverRegistries`: also register the repositories of the
 * main containers when the report opens history (as ensureUpstreamRepositories does), in the same statement.
 *
 * Two statements, each atomic on its own (no interactive transaction):
 * 1. `ensureReportTarget` creates what is missing (environment, target, services; committed on their own, so
 *    concurrent reports never wait on each other's uncommitted inserts; skipped for a target this process
 *    has seen, see `seenTargets`, and services for names it has seen, see `knownServices`), applies a repeated report (it only moves `last_observed_at`), and
 *    otherwise reads the target's state, its row version (`xmin`) and its open history rows;
 * 2. `applyReport` applies the change only if the target row is still the version read (locked, and
 *    re-checked after any wait): every accepted report updates that row, so a report applied in between
 *    makes this one start again from 1. Reports for one target are thereby applied one at a time, as
 *    under a row lock held across both, and a failure stores nothing of the report's history.
 */
export async function applyTargetReport(
  ctx: Pick<RequestCtx, "db" | "now">, workspaceId: string, report: AgentReport, agentKeyId: string | null, opts: { serverRegistries?: readonly string[] } = {},
): Promise<ReportOutcome> {
  const observedAt = new Date(report.observed_at);
  const fingerprint = reportFingerprint(report);
  const now = ctx.now;
  const base = { accepted: true as const, target: report.target.name, environment: report.environment };
  const input: ReportInput = { workspaceId, report, agentKeyId, fingerprint, observedAt, now };

  // A target this process has seen before exists with its environment and, nearly always, its services: the
  // read then creates nothing (nothing of them is ever deleted but with the workspace). Otherwise, or when the
  // lean read or a write finds something missing, the full read creates it.
  const seenKey = `${workspaceId}\u0000${report.target.name}\u0000${report.environment}`;
  let full = !seenTargets.has(seenKey);
  // Likewise services: a new target nearly always runs services the workspace has (a host added to a fleet).
  const serviceKeys = [...new Set(report.workloads.map((w) => `${workspaceId}\u0000${w.service}`))];
  let createServices = !serviceKeys.every((k) => knownServices.has(k));
  for (let attempt = 1; ; attempt++) {
    if (attempt > MAX_ATTEMPTS) throw new Error(`target ${report.target.name} kept changing under report intake`);
    let state: ReportTarget | "repeated" | null;
    try {
      state = await ensureReportTarget(ctx.db, input, full, full && createServices);
    } catch (err) {
      if (retryable(err)) continue;
      throw err;
    }
    if (state === "repeated") return { ...base, changed: false, ignored: null, opened: 0, closed: 0 };
    // Missing from a lean read; or another report created the environment or target first, after this
    // statement's snapshot: read again.
    if (state === null) {
      full = true;
      continue;
    }
    if (full) {
      remember(seenTargets, seenKey);
      if (createServices) for (const k of serviceKeys) remember(knownServices, k);
    }
    const target = state;
    const plan = planReport(target, report, observedAt, fingerprint);
    if (plan === "stale") return { ...base, changed: false, ignored: "stale" as const, opened: 0, closed: 0 };
    // The same report, which ensureReportTarget did not apply: the row changed under it. Read again.
    if (plan === "reread") continue;
    // Only a workload that may resume a closed run costs a query.
    const lastClosed = plan.candidates.length ? await listLastClosedRuns(ctx.db, target.id, plan.candidates.map((w) => w.container)) : [];
    const change = reportChange(plan, lastClosed);

    let repositories: ReturnType<typeof upstreamRepositoriesInsert> = null;
    if (change.fresh.length && opts.serverRegistries) {
      const keys = report.workloads.filter((w) => w.main).map((w) => runRepositoryOf(w).repository);
      repositories = upstreamRepositoriesInsert(workspaceId, keys, opts.serverRegistries, now, { onlyIf: targetLockedSql(), unknownOnly: true });
    }
    let applied: boolean;
    try {
      applied = await applyReport(ctx.db, input, target, change, repositories ? [repositoriesCteSql(repositories.sql)] : []);
    } catch (err) {
      if (retryable(err)) continue;
      // A service first seen in this report, after a read that created none: its rows found no service_id. Create it.
      if (!(full && createServices) && sqlStateOf(err) === "23502") {
        full = true;
        createServices = true;
        continue;
      }
      throw err;
    }
    if (!applied) continue;
    repositories?.registered();
    const { fresh, closeAt, reopen } = change;
    return { ...base, changed: fresh.length > 0 || closeAt.size > 0 || reopen.length > 0, ignored: null, opened: fresh.length, closed: closeAt.size };
  }
}

/** Targets (with the environment reported) this process has read in full before; see applyTargetReport. */
const seenTargets = new Set<string>();
/** Services (workspace and name) a full read of this process created or found; see applyTargetReport. */
const knownServices = new Set<string>();
function remember(set: Set<string>, key: string): void {
  if (set.size >= 100_000) set.clear();
  set.add(key);
}

/** Deadlocks and serialisation failures abort the statement and store nothing: the report starts again. */
function retryable(err: unknown): boolean {
  const code = sqlStateOf(err);
  return code === "40P01" || code === "40001";
}
