// An agent's report is the whole current state of one target. History rows
// open at the runtime's own start time (`since`); a workload whose image
// changed closes at the new one's `since`; one that is gone closes at the
// report's `observed_at`. Stale reports are ignored and repeats change nothing.
import { createHash } from "node:crypto";
import type { AgentReport, Workload } from "@/lib/domain/agent-report";
import { Prisma, queryRows, type Db } from "@/lib/db/client";
import { sqlStateOf } from "@/lib/db/errors";
import { AppError } from "@/lib/domain/errors";
import { parseImageRef } from "@/lib/domain/image-ref";
import { isMovingTag, isVersionTag } from "@/lib/domain/versions";
import { requireAgent, type RequestCtx } from "../context";
import { requestWorkspaceDrift } from "../drift/evaluate-workspace";
import { recordRegistryResults } from "./record-registry-results";
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

/** `from` in epoch milliseconds: read for every open row of every report, and only compared. */
type OpenRun = { id: string; serviceName: string; container: string; image: string; digest: string | null; from: number };

/** The part of a report that identifies "the same report": workloads with their start times. */
export function reportFingerprint(report: Pick<AgentReport, "environment" | "workloads">): string {
  const rows = report.workloads
    .map((w) => [w.service, w.container, w.image, w.digest ?? "", w.platform_digest ?? "", isoInstant(w.since), w.main ? "1" : "0"].join("\u0000"))
    .sort();
  return createHash("sha256").update(report.environment + "\u0001" + rows.join("\u0001")).digest("hex");
}

/** Exact version stored with a run: the tag itself when it names one; moving tags resolve later by digest. */
export function versionOfTag(tag: string): string | null {
  return isVersionTag(tag) && !isMovingTag(tag) ? tag : null;
}

export function splitImage(image: string): { repository: string; tag: string } {
  let split = splitCache.get(image);
  if (split) return split;
  const ref = parseImageRef(image);
  split = ref ? { repository: ref.key, tag: ref.tag ?? (ref.digest ? "" : "latest") } : { repository: image, tag: "" };
  // A fleet runs a bounded set of images, reported again every minute: parse each once.
  if (splitCache.size >= 20_000) splitCache.clear();
  splitCache.set(image, split);
  return split;
}
const splitCache = new Map<string, Readonly<{ repository: string; tag: string }>>();

/** `since` as `Date#toISOString` writes it (UTC, milliseconds), so one instant has one spelling in fingerprints and rows. */
export function isoInstant(value: string): string {
  // Agents send that spelling already: checked, not parsed, since parsing a Date per row is costly.
  const m = CANONICAL_INSTANT.exec(value);
  if (m && Number(m[3]) <= daysInMonth(Number(m[1]), Number(m[2]))) return value;
  return new Date(value).toISOString();
}
const CANONICAL_INSTANT = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;
function daysInMonth(year: number, month: number): number {
  if (month !== 2) return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
}

function sameWorkload(run: Omit<OpenRun, "from">, w: Workload): boolean {
  return run.serviceName === w.service && run.container === w.container && run.image === w.image && run.digest === w.digest;
}

/** `evaluateDrift: false` stores the report only (bulk loads evaluate once at the end). */
export async function recordAgentReport({ ctx, input: report, evaluateDrift = true }: { ctx: RequestCtx; input: AgentReport; evaluateDrift?: boolean }): Promise<ReportOutcome> {
  const agent = requireAgent(ctx.actor);
  const workspaceId = agent.workspaceId;
  // The repositories its main containers run are registered with the history it opens, in the same statement.
  const outcome = await applyTargetReport(ctx, workspaceId, report, agent.agentKeyId, { serverRegistries: ctx.config.serverRegistries });
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
 * 1. `readTarget` creates what is missing (environment, target, services; committed on their own, so
 *    concurrent reports never wait on each other's uncommitted inserts; skipped for a target this process
 *    has seen, see `seenTargets`, and services for names it has seen, see `knownServices`), applies a repeated report (it only moves `last_observed_at`), and
 *    otherwise reads the target's state, its row version (`xmin`) and its open history rows;
 * 2. `writeReport` applies the change only if the target row is still the version read (locked, and
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
    let state: TargetState | "repeated" | null;
    try {
      state = await readTarget(ctx.db, input, full, full && createServices);
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
    if (target.kind !== report.target.kind) {
      throw new AppError("conflict", `Target ${report.target.name} is a ${target.kind} target; report ${report.target.kind} under another name.`);
    }
    if (target.lastObservedAt && observedAt < target.lastObservedAt) {
      return { ...base, changed: false, ignored: "stale" as const, opened: 0, closed: 0 };
    }
    const movedEnvironment = target.environmentId !== target.reportEnvironmentId;
    // The same report, which readTarget did not apply: the row changed under it. Read again.
    if (target.lastReportHash === fingerprint && !movedEnvironment) continue;
    const open = target.open;

    // A target that moved to another environment starts its history there afresh.
    const matched = new Set<string>();
    const fresh: Workload[] = [];
    // Open rows by service and container, in their order: a report's workloads are matched in one pass, not each against every row.
    const byContainer = new Map<string, OpenRun[]>();
    for (const r of open) {
      const key = `${r.serviceName}\u0000${r.container}`;
      const list = byContainer.get(key);
      if (list) list.push(r);
      else byContainer.set(key, [r]);
    }
    const runsOf = (w: Workload): readonly OpenRun[] => byContainer.get(`${w.service}\u0000${w.container}`) ?? [];
    for (const w of report.workloads) {
      const run = movedEnvironment ? undefined : runsOf(w).find((r) => !matched.has(r.id) && sameWorkload(r, w));
      if (run) matched.add(run.id);
      else fresh.push(w);
    }
    const reopen = movedEnvironment ? [] : await reappeared(ctx.db, target.id, target.lastObservedAt, fresh, runsOf);
    const closeAt = new Map<string, Date>();
    for (const w of fresh) {
      // The workload's previous image, if it ran here, ends when the new one started.
      const previous = runsOf(w).find((r) => !matched.has(r.id) && !closeAt.has(r.id));
      if (previous) closeAt.set(previous.id, new Date(Math.max(Date.parse(w.since), previous.from)));
    }
    for (const r of open) if (!matched.has(r.id) && !closeAt.has(r.id)) closeAt.set(r.id, new Date(Math.max(observedAt.getTime(), r.from)));

    let applied: boolean;
    try {
      applied = await writeReport(ctx.db, input, target, { closeAt, reopen, fresh, serverRegistries: opts.serverRegistries });
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

type ReportInput = { workspaceId: string; report: AgentReport; agentKeyId: string | null; fingerprint: string; observedAt: Date; now: Date };

type TargetState = {
  id: string;
  /** Row version (xmin) when read: the write applies only to this version. */
  version: string;
  environmentId: string;
  /** The environment the report names. */
  reportEnvironmentId: string;
  kind: string;
  lastObservedAt: Date | null;
  lastReportHash: string | null;
  open: OpenRun[];
};

/**
 * One statement: create the environment, target and (with `createServices`) services the report names that do not exist yet,
 * fill services' empty application from the report, and either apply a repeated report (same workloads,
 * same environment, not stale: only the observation time moves) or read the target with its open history.
 * "repeated" when applied; null when a concurrent report's insert of the environment or target won.
 */
async function readTarget(db: Db, input: ReportInput, full: boolean, createServices: boolean): Promise<TargetState | "repeated" | null> {
  const { workspaceId, report, agentKeyId, fingerprint, observedAt, now } = input;
  const ws = workspaceId;
  // Names in order, so that concurrent reports creating overlapping services never wait on each other in a cycle.
  const names = [...new Set(report.workloads.map((w) => w.service))].sort();
  const applications = new Map<string, string>();
  for (const w of report.workloads) if (w.application && !applications.has(w.service)) applications.set(w.service, w.application);
  const apps = names.map((n) => applications.get(n) ?? null);
  const services = !createServices || names.length === 0 ? Prisma.empty : Prisma.sql`
    new_services AS (
      INSERT INTO services (id, workspace_id, name, application, check_due_at)
      SELECT gen_random_uuid(), ${ws}::uuid, v.name, v.application, ${now}
      FROM unnest(${names}::text[], ${apps}::text[]) AS v(name, application)
      WHERE NOT EXISTS (SELECT 1 FROM services s WHERE s.workspace_id = ${ws}::uuid AND s.name = v.name)
      ON CONFLICT (workspace_id, name) DO NOTHING),`;
  // The application a runtime reports fills an empty one.
  const filled = applications.size === 0 ? Prisma.empty : Prisma.sql`
    filled AS (
      UPDATE services SET application = v.application
      FROM unnest(${[...applications.keys()]}::text[], ${[...applications.values()]}::text[]) AS v(name, application)
      WHERE services.workspace_id = ${ws}::uuid AND services.name = v.name AND services.application IS NULL),`;
  // A new environment goes to the end of the pipeline for an admin to place.
  const newEnvironment = !full ? Prisma.sql`env AS (SELECT id FROM env0),` : Prisma.sql`
    env1 AS (
      INSERT INTO environments (id, workspace_id, name, position, production, created_at)
      SELECT gen_random_uuid(), ${ws}::uuid, ${report.environment}, coalesce((SELECT max(position) FROM environments WHERE workspace_id = ${ws}::uuid), 0) + 10, false, now()
      WHERE NOT EXISTS (SELECT 1 FROM env0)
      ON CONFLICT (workspace_id, name) DO NOTHING
      RETURNING id),
    env AS (SELECT id FROM env0 UNION ALL SELECT id FROM env1),`;
  const newTarget = !full ? Prisma.sql`t AS (SELECT * FROM t0 WHERE NOT EXISTS (SELECT 1 FROM repeated))` : Prisma.sql`
    t1 AS (
      INSERT INTO targets (id, workspace_id, environment_id, name, kind, agent_key_id, config, created_at)
      SELECT gen_random_uuid(), ${ws}::uuid, env.id, ${report.target.name}, ${report.target.kind}::"TargetKind", ${agentKeyId}::uuid, '{}', ${now} FROM env
      WHERE NOT EXISTS (SELECT 1 FROM t0)
      ON CONFLICT (workspace_id, name) DO NOTHING
      RETURNING id, environment_id, kind, last_observed_at, last_report_hash, xmin::text AS version),
    t AS (SELECT * FROM t0 WHERE NOT EXISTS (SELECT 1 FROM repeated) UNION ALL SELECT * FROM t1)`;
  type Row = { repeated: number; environment_id: string | null; target_id: string | null; target_environment_id: string | null; kind: string | null; last_observed_at: Date | null; last_report_hash: string | null; version: string | null; open: string | null };
  const [row] = await queryRows<Row>(db, Prisma.sql`
    WITH env0 AS (SELECT id FROM environments WHERE workspace_id = ${ws}::uuid AND name = ${report.environment}),
    ${newEnvironment}
    ${services}
    ${filled}
    repeated AS (
      UPDATE targets SET last_observed_at = ${observedAt}, last_report_at = ${now}, agent_key_id = ${agentKeyId}::uuid
      WHERE workspace_id = ${ws}::uuid AND name = ${report.target.name} AND kind = ${report.target.kind}::"TargetKind"
        AND last_report_hash = ${fingerprint} AND environment_id = (SELECT id FROM env0)
        AND (last_observed_at IS NULL OR last_observed_at <= ${observedAt})
      RETURNING id),
    t0 AS (
      SELECT id, environment_id, kind, last_observed_at, last_report_hash, xmin::text AS version FROM targets
      WHERE workspace_id = ${ws}::uuid AND name = ${report.target.name}),
    ${newTarget}
    SELECT (SELECT count(*) FROM repeated)::int AS repeated, (SELECT id::text FROM env LIMIT 1) AS environment_id,
      t.id::text AS target_id, t.environment_id::text AS target_environment_id, t.kind::text AS kind, t.last_observed_at, t.last_report_hash, t.version,
      CASE WHEN t.id IS NOT NULL AND (t.last_observed_at IS NULL OR t.last_observed_at <= ${observedAt}) THEN (
        -- The service's name by its key, row by row: a target holds tens of open rows, a workspace thousands of services.
        SELECT coalesce(json_agg(json_build_array(r.id::text, (SELECT s.name FROM services s WHERE s.id = r.service_id), r.container, r.image, r.digest, r."from")), '[]')::text
        FROM runs r
        WHERE r.target_id = t.id AND r."to" IS NULL) END AS open
    FROM (SELECT 1) AS one LEFT JOIN t ON true`);
  if (!row) throw new Error("the report's target read returned no row");
  if (row.repeated > 0) return "repeated";
  if (row.environment_id === null || row.target_id === null) return null;
  type Cells = [string, string, string, string, string | null, string];
  const open = (JSON.parse(row.open ?? "[]") as Cells[]).map((c) => ({ id: c[0], serviceName: c[1], container: c[2], image: c[3], digest: c[4], from: Date.parse(c[5]) }));
  return {
    id: row.target_id, version: row.version!, environmentId: row.target_environment_id!, reportEnvironmentId: row.environment_id, kind: row.kind!,
    lastObservedAt: row.last_observed_at, lastReportHash: row.last_report_hash, open,
  };
}

/**
 * One statement: lock the target row if it is still the version read, then close, reopen and open history
 * rows, register repositories and record the report on the target. False (nothing written) when the row
 * changed since it was read.
 */
async function writeReport(
  db: Db, input: ReportInput, target: TargetState,
  change: { closeAt: Map<string, Date>; reopen: string[]; fresh: Workload[]; serverRegistries?: readonly string[] },
): Promise<boolean> {
  const { workspaceId, report, agentKeyId, fingerprint, observedAt, now } = input;
  const environmentId = target.reportEnvironmentId;
  const parts: Prisma.Sql[] = [];
  let repositories: ReturnType<typeof upstreamRepositoriesInsert> = null;
  if (change.closeAt.size) {
    // Every row that ends with its end time, as one JSON document (see insertRuns).
    const ends = JSON.stringify([...change.closeAt].map(([id, end]) => ({ id, end })));
    parts.push(Prisma.sql`
      closed AS (
        UPDATE runs SET "to" = v."end" FROM t, json_to_recordset(${ends}::json) AS v(id bigint, "end" timestamptz)
        WHERE runs.id = v.id AND runs.target_id = t.id AND runs."to" IS NULL)`);
  }
  if (change.reopen.length) {
    parts.push(Prisma.sql`
      reopened AS (UPDATE runs SET "to" = NULL FROM t WHERE runs.id = ANY(${change.reopen}::bigint[]) AND runs.target_id = t.id)`);
  }
  if (change.fresh.length) {
    parts.push(Prisma.sql`opened AS (${insertRuns({ workspaceId, environmentId, declared: report.target.kind === "compose_git" }, change.fresh)})`);
    if (change.serverRegistries) {
      const keys = report.workloads.filter((w) => w.main).map((w) => splitImage(w.image).repository);
      repositories = upstreamRepositoriesInsert(workspaceId, keys, change.serverRegistries, now, { onlyIf: Prisma.sql`EXISTS (SELECT 1 FROM t)`, unknownOnly: true });
      if (repositories) parts.push(Prisma.sql`repositories AS (${repositories.sql})`);
    }
  }
  const [row] = await queryRows<{ applied: number }>(db, Prisma.sql`
    WITH t AS (SELECT id FROM targets WHERE id = ${target.id}::uuid AND xmin = ${target.version}::xid FOR NO KEY UPDATE),
    ${parts.length ? Prisma.sql`${Prisma.join(parts, ",\n")},` : Prisma.empty}
    recorded AS (
      UPDATE targets SET environment_id = ${environmentId}::uuid, last_observed_at = ${observedAt}, last_report_at = ${now},
        last_report_hash = ${fingerprint}, agent_key_id = ${agentKeyId}::uuid
      FROM t WHERE targets.id = t.id
      RETURNING 1)
    SELECT count(*)::int AS applied FROM recorded`);
  const applied = (row?.applied ?? 0) > 0;
  if (applied) repositories?.registered();
  return applied;
}

/** Deadlocks and serialisation failures abort the statement and store nothing: the report starts again. */
function retryable(err: unknown): boolean {
  const code = sqlStateOf(err);
  return code === "40P01" || code === "40001";
}

/**
 * A workload missing from one report (a partial listing by the runtime) and back, unchanged, in a newer
 * one never stopped: same container, image, digest and start time as its container's last run, which a
 * report closed. That run is reopened instead of stored twice; the workload leaves `fresh`. Only a
 * workload that started before the last accepted report can be one, so a normal report costs no query.
 * `runsOf`: the target's open rows of a workload's service and container.
 */
async function reappeared(
  db: Db, targetId: string, lastObservedAt: Date | null, fresh: Workload[], runsOf: (w: Workload) => readonly OpenRun[],
): Promise<string[]> {
  const candidates = fresh.filter(
    (w) => lastObservedAt && Date.parse(w.since) < lastObservedAt.getTime() && runsOf(w).length === 0,
  );
  if (candidates.length === 0) return [];
  const last = await db.$queryRaw<(Omit<OpenRun, "from"> & { from: Date })[]>`
    SELECT DISTINCT ON (r.service_id, r.container) r.id::text AS id, s.name AS "serviceName", r.container, r.image, r.digest, r."from"
    FROM runs r JOIN services s ON s.id = r.service_id
    WHERE r.target_id = ${targetId}::uuid AND r."to" IS NOT NULL AND r.container = ANY(${candidates.map((w) => w.container)}::text[])
    ORDER BY r.service_id, r.container, r."to" DESC, r.id DESC`;
  const ids: string[] = [];
  for (const w of candidates) {
    const run = last.find((r) => sameWorkload(r, w) && r.from.getTime() === Date.parse(w.since));
    if (!run) continue;
    ids.push(run.id);
    fresh.splice(fresh.indexOf(w), 1);
  }
  return ids;
}

/**
 * New history rows for the target locked as `t`, as one JSON document: JSON.stringify is native, where
 * the driver writes array parameters element by element (a report's hot path). A service that vanished
 * since the report created it leaves service_id NULL, which fails the statement.
 */
function insertRuns(at: { workspaceId: string; environmentId: string; declared: boolean }, workloads: Workload[]): Prisma.Sql {
  const rows = JSON.stringify(workloads.map((w) => {
    const { repository, tag } = splitImage(w.image);
    return {
      service: w.service, container: w.container, is_main: w.main, image: w.image, repository, tag, version: versionOfTag(tag),
      digest: w.digest, platform_digest: w.platform_digest, platform: w.platform, since: isoInstant(w.since),
    };
  }));
  return Prisma.sql`
    INSERT INTO runs (workspace_id, service_id, environment_id, target_id, container, is_main, image, repository, tag, version, digest, platform_digest, platform, declared, "from")
    SELECT ${at.workspaceId}::uuid, (SELECT s.id FROM services s WHERE s.workspace_id = ${at.workspaceId}::uuid AND s.name = v.service),
           ${at.environmentId}::uuid, t.id, v.container, v.is_main, v.image, v.repository, v.tag, v.version,
           v.digest, v.platform_digest, v.platform, ${at.declared}, v.since
    FROM t, json_to_recordset(${rows}::json) AS v(
      service text, container text, is_main boolean, image text, repository text, tag text, version text,
      digest text, platform_digest text, platform text, since timestamptz)`;
}
