// An agent's report is the whole current state of one target. History rows
// open at the runtime's own start time (`since`); a workload whose image
// changed closes at the new one's `since`; one that is gone closes at the
// report's `observed_at`. Stale reports are ignored and repeats change nothing.
import { createHash } from "node:crypto";
import type { AgentReport, Workload } from "@/lib/agent/report";
import { Prisma, type Db } from "@/lib/db/client";
import { AppError } from "@/lib/domain/errors";
import { parseImageRef } from "@/lib/domain/image-ref";
import { isMovingTag, isVersionTag } from "@/lib/domain/versions";
import { requireAgent, type Ctx } from "./context";
import { requestWorkspaceDrift } from "./drift/evaluate-workspace";
import { recordRegistryResults } from "./record-registry-results";
import { ensureUpstreamRepositories } from "./upstream/ensure-repositories";

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

type OpenRun = { id: bigint; serviceName: string; container: string; image: string; digest: string | null; from: Date };

/** The part of a report that identifies "the same report": workloads with their start times. */
export function reportFingerprint(report: Pick<AgentReport, "environment" | "workloads">): string {
  const rows = report.workloads
    .map((w) => [w.service, w.container, w.image, w.digest ?? "", w.platform_digest ?? "", new Date(w.since).toISOString(), w.main ? "1" : "0"].join("\u0000"))
    .sort();
  return createHash("sha256").update(report.environment + "\u0001" + rows.join("\u0001")).digest("hex");
}

/** Exact version stored with a run: the tag itself when it names one; moving tags resolve later by digest. */
export function versionOfTag(tag: string): string | null {
  return isVersionTag(tag) && !isMovingTag(tag) ? tag : null;
}

export function splitImage(image: string): { repository: string; tag: string } {
  const ref = parseImageRef(image);
  if (!ref) return { repository: image, tag: "" };
  return { repository: ref.key, tag: ref.tag ?? (ref.digest ? "" : "latest") };
}

function sameWorkload(run: OpenRun, w: Workload): boolean {
  return run.serviceName === w.service && run.container === w.container && run.image === w.image && run.digest === w.digest;
}

/** `evaluateDrift: false` stores the report only (bulk loads evaluate once at the end). */
export async function recordAgentReport({ ctx, report, evaluateDrift = true }: { ctx: Ctx; report: AgentReport; evaluateDrift?: boolean }): Promise<ReportOutcome> {
  const agent = requireAgent(ctx.actor);
  const workspaceId = agent.workspaceId;
  const now = ctx.now();
  const outcome = await applyTargetReport(ctx, workspaceId, report, agent.agentKeyId);

  if (outcome.opened > 0) {
    const keys = report.workloads.filter((w) => w.main).map((w) => splitImage(w.image).repository);
    await ensureUpstreamRepositories(ctx.db, workspaceId, keys, ctx.config.serverRegistries, now);
  }
  if (report.registry_results.length && outcome.ignored === null) {
    await recordRegistryResults({ ctx, workspaceId, results: report.registry_results });
  }
  // Drift follows what the report changed, evaluated right after it and shared by a burst of reports;
  // the 202 does not wait for it (reads in this process do: see driftSettled).
  if (evaluateDrift && (outcome.changed || (report.registry_results.length > 0 && outcome.ignored === null))) {
    requestWorkspaceDrift({ db: ctx.db, config: ctx.config, now: ctx.now() }, workspaceId);
  }
  return outcome;
}

/**
 * Apply one target's whole current state to history, in one transaction with
 * the target row locked. Used for agent reports and for Compose files the
 * server reads from Git (`agentKeyId` null).
 */
export async function applyTargetReport(ctx: Pick<Ctx, "db" | "now">, workspaceId: string, report: AgentReport, agentKeyId: string | null): Promise<ReportOutcome> {
  const observedAt = new Date(report.observed_at);
  const fingerprint = reportFingerprint(report);
  const now = ctx.now();

  // Environment, target and services first, each idempotent and committed on its own: concurrent
  // reports then never wait on each other's uncommitted inserts inside the report transaction.
  const environment = await ensureEnvironment(ctx.db, workspaceId, report.environment);
  await ensureTarget(ctx.db, workspaceId, environment.id, report.target, agentKeyId, now);
  const serviceIds = await ensureServices(ctx.db, workspaceId, report.workloads, now);

  const outcome = await ctx.db.$transaction(
    async (tx) => {
      // Reports for one target are applied one at a time.
      const [target] = await tx.$queryRaw<{ id: string; environment_id: string; kind: string; last_observed_at: Date | null; last_report_hash: string | null }[]>`
        SELECT id::text, environment_id::text, kind::text, last_observed_at, last_report_hash FROM targets
        WHERE workspace_id = ${workspaceId}::uuid AND name = ${report.target.name} FOR UPDATE`;
      if (!target) throw new Error("target row vanished");
      if (target.kind !== report.target.kind) {
        throw new AppError("conflict", `Target ${report.target.name} is a ${target.kind} target; report ${report.target.kind} under another name.`);
      }
      const base = { accepted: true as const, target: report.target.name, environment: report.environment };
      if (target.last_observed_at && observedAt < target.last_observed_at) {
        return { ...base, changed: false, ignored: "stale" as const, opened: 0, closed: 0 };
      }
      const movedEnvironment = target.environment_id !== environment.id;
      if (target.last_report_hash === fingerprint && !movedEnvironment) {
        await tx.$executeRaw`
          UPDATE targets SET last_observed_at = ${observedAt}, last_report_at = ${now}, agent_key_id = ${agentKeyId}::uuid WHERE id = ${target.id}::uuid`;
        return { ...base, changed: false, ignored: null, opened: 0, closed: 0 };
      }

      const open = await tx.$queryRaw<OpenRun[]>`
        SELECT r.id, s.name AS "serviceName", r.container, r.image, r.digest, r."from"
        FROM runs r JOIN services s ON s.id = r.service_id
        WHERE r.target_id = ${target.id}::uuid AND r."to" IS NULL`;

      // A target that moved to another environment starts its history there afresh.
      const matched = new Set<bigint>();
      const fresh: Workload[] = [];
      for (const w of report.workloads) {
        const run = movedEnvironment ? undefined : open.find((r) => !matched.has(r.id) && sameWorkload(r, w));
        if (run) matched.add(run.id);
        else fresh.push(w);
      }
      const reopened = movedEnvironment ? 0 : await reopenReappeared(tx, target.id, target.last_observed_at, fresh, open);
      const closeAt = new Map<bigint, Date>();
      for (const w of fresh) {
        // The workload's previous image, if it ran here, ends when the new one started.
        const previous = open.find((r) => !matched.has(r.id) && !closeAt.has(r.id) && r.serviceName === w.service && r.container === w.container);
        if (previous) closeAt.set(previous.id, maxDate(new Date(w.since), previous.from));
      }
      for (const r of open) if (!matched.has(r.id) && !closeAt.has(r.id)) closeAt.set(r.id, maxDate(observedAt, r.from));

      if (closeAt.size) {
        // One statement for every row that ends: ids and end times side by side.
        const ids = [...closeAt.keys()];
        const ends = ids.map((id) => closeAt.get(id)!);
        await tx.$executeRaw`
          UPDATE runs SET "to" = v.ends FROM unnest(${ids}::bigint[], ${ends}::timestamptz[]) AS v(id, ends)
          WHERE runs.id = v.id AND runs."to" IS NULL`;
      }
      if (fresh.length) await insertRuns(tx, { workspaceId, environmentId: environment.id, targetId: target.id, declared: report.target.kind === "compose_git" }, fresh, serviceIds);
      await tx.$executeRaw`
        UPDATE targets SET environment_id = ${environment.id}::uuid, last_observed_at = ${observedAt}, last_report_at = ${now},
          last_report_hash = ${fingerprint}, agent_key_id = ${agentKeyId}::uuid
        WHERE id = ${target.id}::uuid`;
      return { ...base, changed: fresh.length > 0 || closeAt.size > 0 || reopened > 0, ignored: null, opened: fresh.length, closed: closeAt.size };
    },
    // Under a burst of reports, wait for a connection rather than fail; overload answers 503 (lib/http/problem.ts).
    { timeout: 30_000, maxWait: 15_000, isolationLevel: Prisma.TransactionIsolationLevel.ReadCommitted },
  );

  return outcome;
}

/**
 * A workload missing from one report (a partial listing by the runtime) and back, unchanged, in a newer
 * one never stopped: same container, image, digest and start time as its container's last run, which a
 * report closed. That run is reopened instead of stored twice; the workload leaves `fresh`. Only a
 * workload that started before the last accepted report can be one, so a normal report costs no query.
 */
async function reopenReappeared(tx: Prisma.TransactionClient, targetId: string, lastObservedAt: Date | null, fresh: Workload[], open: OpenRun[]): Promise<number> {
  const candidates = fresh.filter(
    (w) => lastObservedAt && new Date(w.since) < lastObservedAt && !open.some((r) => r.serviceName === w.service && r.container === w.container),
  );
  if (candidates.length === 0) return 0;
  const last = await tx.$queryRaw<OpenRun[]>`
    SELECT DISTINCT ON (r.service_id, r.container) r.id, s.name AS "serviceName", r.container, r.image, r.digest, r."from"
    FROM runs r JOIN services s ON s.id = r.service_id
    WHERE r.target_id = ${targetId}::uuid AND r."to" IS NOT NULL AND r.container = ANY(${candidates.map((w) => w.container)}::text[])
    ORDER BY r.service_id, r.container, r."to" DESC, r.id DESC`;
  const ids: bigint[] = [];
  for (const w of candidates) {
    const run = last.find((r) => sameWorkload(r, w) && r.from.getTime() === new Date(w.since).getTime());
    if (!run) continue;
    ids.push(run.id);
    fresh.splice(fresh.indexOf(w), 1);
  }
  if (ids.length) await tx.$executeRaw`UPDATE runs SET "to" = NULL WHERE id = ANY(${ids}::bigint[])`;
  return ids.length;
}

/** New history rows in one statement, column by column (a report's hot path: no per-row query building). */
async function insertRuns(
  tx: Prisma.TransactionClient,
  at: { workspaceId: string; environmentId: string; targetId: string; declared: boolean },
  workloads: Workload[],
  serviceIds: Map<string, string>,
): Promise<void> {
  const split = workloads.map((w) => splitImage(w.image));
  const col = <T>(f: (w: Workload, i: number) => T): T[] => workloads.map(f);
  await tx.$executeRaw`
    INSERT INTO runs (workspace_id, service_id, environment_id, target_id, container, is_main, image, repository, tag, version, digest, platform_digest, platform, declared, "from")
    SELECT ${at.workspaceId}::uuid, v.service_id, ${at.environmentId}::uuid, ${at.targetId}::uuid, v.container, v.is_main, v.image, v.repository, v.tag, v.version,
           v.digest, v.platform_digest, v.platform, ${at.declared}, v.since
    FROM unnest(
      ${col((w) => serviceIds.get(w.service)!)}::uuid[], ${col((w) => w.container)}::text[], ${col((w) => w.main)}::boolean[], ${col((w) => w.image)}::text[],
      ${col((_, i) => split[i]!.repository)}::text[], ${col((_, i) => split[i]!.tag)}::text[], ${col((_, i) => versionOfTag(split[i]!.tag))}::text[],
      ${col((w) => w.digest)}::text[], ${col((w) => w.platform_digest)}::text[], ${col((w) => w.platform)}::text[], ${col((w) => new Date(w.since))}::timestamptz[]
    ) AS v(service_id, container, is_main, image, repository, tag, version, digest, platform_digest, platform, since)`;
}

function maxDate(a: Date, b: Date): Date {
  return a > b ? a : b;
}

type Queryable = Prisma.TransactionClient | Db;

/** The environment named in a report; a new one goes to the end of the pipeline for an admin to place. */
async function ensureEnvironment(db: Queryable, workspaceId: string, name: string): Promise<{ id: string }> {
  const [existing] = await db.$queryRaw<{ id: string }[]>`SELECT id::text FROM environments WHERE workspace_id = ${workspaceId}::uuid AND name = ${name}`;
  if (existing) return existing;
  const last = await db.environment.aggregate({ where: { workspaceId }, _max: { position: true } });
  await db.$executeRaw`
    INSERT INTO environments (id, workspace_id, name, position, production, created_at)
    VALUES (gen_random_uuid(), ${workspaceId}::uuid, ${name}, ${(last._max.position ?? 0) + 10}, false, now())
    ON CONFLICT (workspace_id, name) DO NOTHING`;
  return db.environment.findUniqueOrThrow({ where: { workspaceId_name: { workspaceId, name } }, select: { id: true } });
}

async function ensureTarget(db: Queryable, workspaceId: string, environmentId: string, target: AgentReport["target"], agentKeyId: string | null, now: Date): Promise<void> {
  const [existing] = await db.$queryRaw<{ id: string }[]>`SELECT id::text FROM targets WHERE workspace_id = ${workspaceId}::uuid AND name = ${target.name}`;
  if (existing) return;
  await db.$executeRaw`
    INSERT INTO targets (id, workspace_id, environment_id, name, kind, agent_key_id, config, created_at)
    VALUES (gen_random_uuid(), ${workspaceId}::uuid, ${environmentId}::uuid, ${target.name}, ${target.kind}::"TargetKind", ${agentKeyId}::uuid, '{}', ${now})
    ON CONFLICT (workspace_id, name) DO NOTHING`;
}

/** Services named by workloads, created on first sight; the application a runtime reports fills an empty one. */
async function ensureServices(db: Queryable, workspaceId: string, workloads: Workload[], now: Date): Promise<Map<string, string>> {
  const names = [...new Set(workloads.map((w) => w.service))];
  if (names.length === 0) return new Map();
  const applications = new Map<string, string>();
  for (const w of workloads) if (w.application && !applications.has(w.service)) applications.set(w.service, w.application);
  const find = () => db.$queryRaw<{ id: string; name: string; application: string | null }[]>`
    SELECT id::text, name, application FROM services WHERE workspace_id = ${workspaceId}::uuid AND name = ANY(${names}::text[])`;
  let rows = await find();
  if (rows.length < names.length) {
    const known = new Set(rows.map((r) => r.name));
    await db.service.createMany({
      data: names.filter((n) => !known.has(n)).map((name) => ({ workspaceId, name, application: applications.get(name) ?? null, checkDueAt: now })),
      skipDuplicates: true,
    });
    rows = await find();
  }
  for (const r of rows.filter((r) => !r.application && applications.has(r.name))) {
    await db.service.update({ where: { id: r.id }, data: { application: applications.get(r.name)! } });
  }
  return new Map(rows.map((r) => [r.name, r.id]));
}
