// Retention: history and the outbox kept compact. Run by the background tick
// at most hourly (any process; concurrent runs skip each other).
//
// - History rows (runs) that ended more than DRIFTWATCH_RETENTION_DAYS ago are
//   removed in batches. Never an open row, and never the last row of a service
//   on a target. Before a batch goes, its deploys are folded into
//   `delivery_arrivals`: the first and last time each exact version ran in each
//   environment, which is all the delivery statistics read from history. The
//   delivery page, its charts, the monthly report and /metrics read those rows
//   beside the history that is left, so their figures for old periods stay.
// - Resolved drift records older than the same cutoff go too.
// - Events older than DRIFTWATCH_LOG_RETENTION_DAYS, once routed and with no
//   delivery still pending, go with their deliveries; so do old sign-in failures.
import type { Config } from "@/lib/config";
import { Prisma, type Db } from "@/lib/db/client";
import { getCacheEntry } from "@/lib/db/queries/cache-entries/get-cache-entry";
import { putCacheEntry } from "@/lib/db/queries/cache-entries/put-cache-entry";
import { foldDeliveryArrivals } from "@/lib/db/queries/delivery-arrivals/fold-delivery-arrivals";
import { deleteResolvedDrifts } from "@/lib/db/queries/drifts/delete-resolved-drifts";
import { deleteOldEvents } from "@/lib/db/queries/notifications/delete-old-events";
import { tryLockRetention } from "@/lib/db/queries/retention/try-lock-retention";
import { deleteRuns } from "@/lib/db/queries/runs/delete-runs";
import { getAnyRunClosedBefore } from "@/lib/db/queries/runs/get-any-run-closed-before";
import { listPrunableRuns } from "@/lib/db/queries/runs/list-prunable-runs";
import { loadServiceFacts } from "@/lib/db/queries/services/list-service-facts";
import { deleteOldLoginAttempts } from "@/lib/db/queries/sessions/delete-old-login-attempts";
import { listWorkspaceIds } from "@/lib/db/queries/workspaces/list-workspace-ids";
import { loadUpstream } from "@/lib/db/queries/upstream/list-upstream-facts";
import { exactVersionOf } from "@/lib/domain/running-version";
import { log } from "@/lib/log";
import type { TickCtx } from "../context";

const DAY = 86_400_000;
/** How often the tick prunes. */
export const RETENTION_INTERVAL_MS = 3_600_000;
const LAST_RUN_KEY = "retention:last-run";

/** A tick's context; retention reads only these settings. */
type RetentionCtx = Omit<TickCtx, "config"> & { config: Pick<Config, "retentionDays" | "logRetentionDays"> };
export type RetentionOptions = { batch?: number; maxBatches?: number };
export type RetentionResult = { runs: number; arrivals: number; drifts: number; events: number; loginAttempts: number; busy: boolean };

/** When history and the outbox are pruned to; null history cutoff: kept forever. */
export function retentionCutoffs(config: Pick<Config, "retentionDays" | "logRetentionDays">, now: Date): { history: Date | null; log: Date } {
  return {
    history: config.retentionDays > 0 ? new Date(now.getTime() - config.retentionDays * DAY) : null,
    log: new Date(now.getTime() - config.logRetentionDays * DAY),
  };
}

/** Prune once, in batches of `batch` rows, at most `maxBatches` batches of each kind per workspace. */
export async function pruneHistory({ ctx: deps, input: opts = {} }: { ctx: RetentionCtx; input?: RetentionOptions }): Promise<RetentionResult> {
  const batch = opts.batch ?? 5_000;
  const maxBatches = opts.maxBatches ?? 40;
  const cutoffs = retentionCutoffs(deps.config, deps.now);
  const out: RetentionResult = { runs: 0, arrivals: 0, drifts: 0, events: 0, loginAttempts: 0, busy: false };

  if (cutoffs.history) {
    for (const id of await listWorkspaceIds(deps.db)) {
      const done = await pruneWorkspace(deps.db, id, cutoffs.history, batch, maxBatches);
      out.runs += done.runs;
      out.arrivals += done.arrivals;
      out.drifts += done.drifts;
      if (done.busy) return { ...out, busy: true };
    }
  }

  for (let i = 0; i < maxBatches; i++) {
    const n = await locked(deps.db, (tx) => deleteOldEvents(tx, cutoffs.log, batch));
    if (n === null) return { ...out, busy: true };
    out.events += n;
    if (n < batch) break;
  }
  out.loginAttempts = await deleteOldLoginAttempts(deps.db, cutoffs.log);
  return out;
}

/** `pruneHistory` when the last run (by any process) is an interval old; failures are logged, not thrown. */
export async function retentionTick({ ctx: deps }: { ctx: RetentionCtx }): Promise<RetentionResult | null> {
  const last = await getCacheEntry(deps.db, LAST_RUN_KEY);
  if (last && deps.now.getTime() - last.fetchedAt.getTime() < RETENTION_INTERVAL_MS) return null;
  try {
    const result = await pruneHistory({ ctx: deps });
    if (!result.busy) {
      const value = { ...result } as Prisma.InputJsonValue;
      await putCacheEntry(deps.db, { key: LAST_RUN_KEY, value, fetchedAt: deps.now });
    }
    if (result.runs || result.drifts || result.events) {
      log.info(`retention: removed ${result.runs} history rows (${result.arrivals} deploys kept as arrivals), ${result.drifts} resolved drifts, ${result.events} events`);
    }
    return result;
  } catch (err) {
    log.warn(`retention failed: ${String(err)}`);
    return null;
  }
}

type Tx = Prisma.TransactionClient;

/** `fn` in a transaction holding the retention lock; null when another process holds it. */
async function locked<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T | null> {
  return db.$transaction(
    async (tx) => {
      if (!(await tryLockRetention(tx))) return null;
      return fn(tx);
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
}

async function pruneWorkspace(db: Db, workspaceId: string, cutoff: Date, batch: number, maxBatches: number) {
  const done = { runs: 0, arrivals: 0, drifts: 0, busy: false };
  if (await getAnyRunClosedBefore(db, workspaceId, cutoff)) {
    const folded = await foldAndRemoveRuns(db, workspaceId, cutoff, batch, maxBatches);
    if (folded === null) return { ...done, busy: true };
    done.runs = folded.runs;
    done.arrivals = folded.arrivals;
  }

  for (let i = 0; i < maxBatches; i++) {
    const n = await locked(db, (tx) => deleteResolvedDrifts(tx, workspaceId, cutoff, batch));
    if (n === null) return { ...done, busy: true };
    done.drifts += n;
    if (n < batch) break;
  }
  return done;
}

/** History rows closed before the cutoff, in batches: their deploys folded into delivery_arrivals, then removed. Null: another process holds the lock. */
async function foldAndRemoveRuns(db: Db, workspaceId: string, cutoff: Date, batch: number, maxBatches: number): Promise<{ runs: number; arrivals: number } | null> {
  const done = { runs: 0, arrivals: 0 };
  // Exact versions are worked out as the delivery statistics do (loadArrivalIndex): the
  // service's repository (its override, else what runs now), its upstream tags, the digest cache.
  const facts = await loadServiceFacts(db, workspaceId);
  const repositoryOf = new Map(facts.map((f) => [f.id, f.repository ?? f.runningRepository] as const));
  const upstream = await loadUpstream(db, workspaceId, [...new Set([...repositoryOf.values()].filter((r): r is string => r !== null))]);

  for (let i = 0; i < maxBatches; i++) {
    const result = await locked(db, async (tx) => {
      // Closed before the cutoff, and not the last row of its service on its target.
      const rows = await listPrunableRuns(tx, workspaceId, cutoff, batch);
      if (rows.length === 0) return { runs: 0, arrivals: 0 };
      // service, environment, version → first and last moment it ran there
      const folded = new Map<string, { serviceId: string; environmentId: string; version: string; first: Date; last: Date }>();
      for (const r of rows) {
        if (!r.counts) continue;
        const repository = repositoryOf.get(r.service_id) ?? null;
        const tags = repository === null ? null : (upstream.get(repository)?.tags ?? null);
        const version = exactVersionOf({ tag: r.tag, tagVersion: r.version, resolvedVersion: r.resolved_tag }, tags);
        if (version === null) continue;
        const key = `${r.service_id}\n${r.environment_id}\n${version}`;
        const f = folded.get(key);
        if (!f) folded.set(key, { serviceId: r.service_id, environmentId: r.environment_id, version, first: r.from, last: r.to });
        else {
          if (r.from < f.first) f.first = r.from;
          if (r.to > f.last) f.last = r.to;
        }
      }
      const arrivals = [...folded.values()];
      if (arrivals.length) {
        await foldDeliveryArrivals(tx, workspaceId, arrivals);
      }
      const runs = await deleteRuns(tx, rows.map((r) => r.id));
      return { runs, arrivals: arrivals.length, more: rows.length === batch };
    });
    if (result === null) return null;
    done.runs += result.runs;
    done.arrivals += result.arrivals;
    if (!("more" in result) || !result.more) break;
  }
  return done;
}
