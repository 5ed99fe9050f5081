// One drift evaluation of a workspace: detect what differs now, plan the
// lifecycle against the live records, and apply it with its events in one
// transaction. Evaluations of a workspace are serialised by an advisory lock
// (across processes) taken before anything is read, so a plan is always made
// from the records the previous one left and from data no older than theirs.
import { listOpenAcks } from "@/lib/db/queries/acks/list-open-acks";
import { listLiveDrifts } from "@/lib/db/queries/drifts/list-live-drifts";
import { randomUUID } from "node:crypto";
import type { Config } from "@/lib/config";
import { sqlTransaction, type Db } from "@/lib/db/client";
import { lockDriftEvaluation, tryLockDriftEvaluation } from "@/lib/db/queries/drifts/lock-drift-evaluation";
import { getWorkspaceNameSql } from "@/lib/db/queries/workspaces/get-workspace-name-sql";
import {
  ackLiftedNow, createJumpFinder, createVersionComparator, detectDifferences, groupCurrentRuns, driftKeyOf, indexRunningVersions, nextClockChange, planLifecycle,
  type CurrentRun, type Difference, type EnvironmentInfo, type LifecyclePlan, type ServiceInput,
} from "@/lib/domain/drift";
import { detectEnvDrift } from "@/lib/domain/drift/detect-env";
import type { EffectivePolicy } from "@/lib/domain/policy";
import { log } from "@/lib/log";
import { readEvaluationSnapshot, rulesOf, writeEvaluationMarker } from "./evaluation-marker";
import { createEvaluationQueue, type EvaluationQueue, type QueueTiming } from "./evaluation-queue";
import { loadClosedHistory, readDriftInputsByChunk, type DriftInputs } from "./load-inputs";
import { persistPlan, type PlanNames } from "./persist-plan";

/** A tick's or a request's context: evaluation needs only these. */
export type EvaluateCtx = { db: Db; config: Pick<Config, "eolEnabled" | "baseUrl">; now: Date };

export type EvaluateInput = {
  workspaceId: string;
  /** Services read and detected at a time (default DRIFT_CHUNK_SERVICES). */
  chunkServices?: number;
  /** Drifts or events a statement writes at most (default WRITE_CHUNK_ROWS). */
  writeChunkRows?: number;
};

type EvaluateDeps = EvaluateCtx & Omit<EvaluateInput, "workspaceId">;

export type EvaluationResult = {
  workspaceId: string;
  /** True when another evaluation held the workspace and `wait` was false. */
  skipped: boolean;
  differences: number;
  opened: number;
  announced: number;
  updated: number;
  resolved: number;
  liftedAcks: number;
  /** Event rows written (a repeated evaluation writes none). */
  events: number;
  silencedEvents: number;
};

const emptyResult = (workspaceId: string, skipped = false): EvaluationResult => ({
  workspaceId, skipped, differences: 0, opened: 0, announced: 0, updated: 0, resolved: 0, liftedAcks: 0, events: 0, silencedEvents: 0,
});

/**
 * A report's evaluation waits for a pause in the workspace's reports (or 2 s at
 * most), and for 3 times the previous evaluation's duration after it: under a
 * stream of reports a workspace is evaluated a few times rather than back to
 * back, which leaves the CPU to intake. Anyone who awaits an evaluation starts it.
 */
export const REPORT_EVALUATION_TIMING: QueueTiming = { quietMs: 200, maxDelayMs: 2_000, restFactor: 3 };

/** The scheduler's tick only tries the workspace's lock, and skips it when another process holds it. */
type QueuedDeps = EvaluateDeps & { tryLock?: boolean };

// On globalThis: Next bundles route handlers separately, and they share one process and one pool.
const queue = ((globalThis as unknown as { __driftwatchDriftQueue?: EvaluationQueue<QueuedDeps, EvaluationResult> }).__driftwatchDriftQueue ??=
  createEvaluationQueue<QueuedDeps, EvaluationResult>((workspaceId, deps) => evaluateLocked(deps, workspaceId), REPORT_EVALUATION_TIMING));

/**
 * Evaluates a workspace's drift. `wait: false` (the scheduler) skips a
 * workspace whose evaluation is running or pending in this process, and one
 * another process holds. Otherwise the caller waits, joining the pending
 * evaluation, which starts after the running one and so sees everything written before.
 */
export async function evaluateWorkspaceDrift({ ctx, input }: { ctx: EvaluateCtx; input: EvaluateInput & { wait?: boolean } }): Promise<EvaluationResult> {
  const { workspaceId, wait: _wait, ...tuning } = input;
  const deps: EvaluateDeps = { db: ctx.db, config: ctx.config, now: ctx.now, ...tuning };
  if (input.wait === false) return (await queue.ifIdle(workspaceId, { ...deps, tryLock: true })) ?? emptyResult(workspaceId, true);
  return queue.now(workspaceId, deps);
}

/**
 * Asks for an evaluation without waiting for it: report intake answers 202 as
 * soon as history is stored, and a burst of reports shares one evaluation. A
 * failure is logged; the scheduler's tick evaluates every workspace each
 * minute, so a lost request is made good there.
 */
export function requestWorkspaceDrift({ ctx, input: { workspaceId } }: { ctx: EvaluateCtx; input: { workspaceId: string } }): void {
  queue.request(workspaceId, { db: ctx.db, config: ctx.config, now: ctx.now }).catch((err: unknown) => log.warn(`drift evaluation after a report failed: ${String(err)}`));
}

/**
 * Read-your-writes in this process: a read that follows a report starts the
 * evaluation that report asked for and waits for it (at most `maxMs`), so what
 * it shows includes the report's drift. Costs a map lookup when nothing is pending. True when it waited.
 */
export async function driftSettled(workspaceId: string, maxMs = 10_000): Promise<boolean> {
  return queue.settled(workspaceId, maxMs);
}

async function evaluateLocked(deps: QueuedDeps, workspaceId: string): Promise<EvaluationResult> {
  const { now } = deps;
  const empty = emptyResult(workspaceId);
  // On the pool, not in a Prisma transaction: a first evaluation's writes carry tens of thousands of values.
  return sqlTransaction(
    deps.db,
    async (tx) => {
      if (deps.tryLock) {
        if (!(await tryLockDriftEvaluation(tx, workspaceId))) return emptyResult(workspaceId, true);
      } else {
        await lockDriftEvaluation(tx, workspaceId);
      }
      // Before anything is read: every write it covers, the reads below see (evaluation-marker.ts).
      const snapshot = await readEvaluationSnapshot(tx);
      const workspaceName = await getWorkspaceNameSql(tx, workspaceId);
      if (workspaceName === null) return empty;

      // Under the lock, read on other connections in parallel: every writer of this
      // workspace's drift holds the same lock, so the records read are the latest.
      // What runs is read and detected a range of services at a time (readDriftInputsByChunk).
      const reader = readDriftInputsByChunk(deps.db, deps.config, workspaceId, now, deps.chunkServices);
      const [records, acks] = await Promise.all([listLiveDrifts(deps.db, workspaceId), listOpenAcks(deps.db, workspaceId, now)]);
      const liveEnv = new Set(records.filter((r) => r.kind === "env").map(driftKeyOf));
      // Only acknowledgements read what runs: keep the rows of the services that have one.
      const acked = new Set(acks.map((a) => a.serviceId));
      const differences: Difference[] = [];
      const services: ServiceInput[] = [];
      const ackedRuns: CurrentRun[] = [];
      let environments: readonly EnvironmentInfo[] = [];
      for (let inputs = await reader.next(); inputs !== null; inputs = await reader.next()) {
        for (const d of await detectWithHistory(deps.db, workspaceId, inputs, liveEnv, now)) differences.push(d);
        for (const service of inputs.services) services.push(service);
        if (acked.size > 0) for (const run of inputs.current) if (acked.has(run.serviceId)) ackedRuns.push(run);
        environments = inputs.environments;
      }
      const policies = new Map<string, EffectivePolicy>(services.map((s) => [s.id, s.policy] as const));
      const runningVersions = indexRunningVersions(ackedRuns);
      const plan: LifecyclePlan = planLifecycle({ records, differences, policies, acks, currentVersions: runningVersions, now });
      const lifted = ackLiftedNow({ acks, runningVersions, now });

      // Names only go into event payloads.
      const hasEvents = plan.events.length > 0;
      const names: PlanNames = {
        workspace: workspaceName,
        baseUrl: deps.config.baseUrl,
        services: hasEvents ? new Map(services.map((s) => [s.id, { name: s.name, team: s.team }] as const)) : new Map(),
        environments: hasEvents ? new Map(environments.map((e) => [e.id, e.name] as const)) : new Map(),
      };
      const written = await persistPlan(tx, { workspaceId, plan, records, lifted, names, now, newId: randomUUID, chunkRows: deps.writeChunkRows });
      const nextClockAt = nextClockChange({ records, plan, policies, services, now });
      await writeEvaluationMarker(tx, { workspaceId, snapshot, rules: rulesOf(deps.config), nextClockAt, evaluatedAt: now });
      return {
        workspaceId,
        skipped: false,
        differences: differences.length,
        opened: plan.toOpen.length,
        announced: plan.toAnnounce.length,
        updated: plan.toUpdate.length,
        resolved: plan.toResolve.length,
        liftedAcks: lifted.length,
        events: written.events,
        silencedEvents: written.silencedEvents,
      };
    },
    { timeoutMs: 120_000 },
  );
}

/**
 * Detection dates env drift from the earlier environment's history. That date
 * matters only for a drift about to be opened (a live record keeps its
 * opened_at), so history is read for those few pairs, and detection runs
 * again for their services alone.
 */
async function detectWithHistory(db: Db, workspaceId: string, inputs: DriftInputs, live: ReadonlySet<string>, now: Date): Promise<Difference[]> {
  const base = { environments: inputs.environments, services: inputs.services, current: inputs.current, now };
  const first = detectDifferences({ ...base, history: [] });
  const fresh = first.filter((d) => d.kind === "env" && !live.has(driftKeyOf(d)));
  if (fresh.length === 0) return first;

  const previousOf = previousEnvironmentFinder(inputs.environments, inputs.current);
  const pairs = new Map<string, { serviceId: string; environmentId: string }>();
  for (const d of fresh) {
    const previous = previousOf(d.serviceId, d.environmentId);
    if (previous !== null) pairs.set(`${d.serviceId}:${previous}`, { serviceId: d.serviceId, environmentId: previous });
  }
  const history = await loadClosedHistory(db, workspaceId, [...pairs.values()], inputs.upstreamTags);
  if (history.length === 0) return first;

  // Only env drift reads history: date it again for those services, keep every other difference.
  const again = new Set(history.map((h) => h.serviceId));
  const services = new Map(inputs.services.filter((s) => again.has(s.id)).map((s) => [s.id, s] as const));
  const dated = detectEnvDrift({
    environments: [...inputs.environments].sort((a, b) => a.position - b.position),
    services,
    runs: groupCurrentRuns(inputs.current.filter((run) => services.has(run.serviceId))),
    history,
    compare: createVersionComparator(),
    jump: createJumpFinder(),
    now,
  });
  return [...first.filter((d) => d.kind !== "env" || !again.has(d.serviceId)), ...dated];
}

/** The nearest earlier environment (pipeline order) where the service runs: the one env drift compares with. */
function previousEnvironmentFinder(environments: readonly EnvironmentInfo[], current: readonly CurrentRun[]) {
  const order = [...environments].sort((a, b) => a.position - b.position).map((e) => e.id);
  const present = new Map<string, Set<string>>();
  for (const run of current) {
    let set = present.get(run.serviceId);
    if (set === undefined) present.set(run.serviceId, (set = new Set()));
    set.add(run.environmentId);
  }
  return (serviceId: string, environmentId: string): string | null => {
    const here = order.indexOf(environmentId);
    const set = present.get(serviceId);
    for (let i = here - 1; i >= 0 && set !== undefined; i--) {
      const id = order[i] as string;
      if (set.has(id)) return id;
    }
    return null;
  };
}
