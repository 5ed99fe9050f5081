// Insight results are costly (whole-workspace reads and months of history) and
// asked for often. A result is labelled with the PostgreSQL transaction
// snapshot read before computing it (`pg_current_snapshot()`: which
// transactions had finished), and answers every request whose own snapshot it
// covers: one that sees at least every transaction the request's did. Only
// transactions that write move a snapshot; vacuum, checkpoints and other WAL
// traffic do not. Past a TTL a result is recomputed in the background, since
// waiting times and windows move with the clock; a result that names the
// instant the clock changes it (`validUntil`) is recomputed at that instant
// instead, and not on a schedule. A key is computed once at a
// time: requests a running computation does not cover wait for it and share
// one follow-up, so a burst of writes under load never starts a computation
// per request.
//
// Most transactions change nothing an insight shows: a token's "last used",
// the audit log, notifications, another server's leases. Triggers note the
// transactions that do (insight_writes). A request the result's snapshot does
// not cover asks the database whether any noted transaction finished between
// the two snapshots; if none did, the result is answered (and relabelled).
import type { Db } from "@/lib/db/client";
import { getCurrentSnapshot } from "@/lib/db/queries/insight-writes/get-current-snapshot";
import { getInsightWritesUnchanged } from "@/lib/db/queries/insight-writes/get-insight-writes-unchanged";
import { pruneInsightWrites as pruneNotedWrites } from "@/lib/db/queries/insight-writes/prune-insight-writes";
import { log } from "@/lib/log";
import type { RequestCtx } from "../context";

export const INSIGHTS_CACHE_TTL_MS = 30_000;
// Whole-workspace results can be megabytes: keep few.
const MAX_ENTRIES = 64;

/**
 * A transaction snapshot: every transaction id below `xmax` has finished, except those in `running`;
 * every one below `xmin` had. `text` is its `pg_snapshot` spelling.
 */
export type Snapshot = { xmin: bigint; xmax: bigint; running: bigint[]; text: string };

/** `insight_writes` rows are pruned after this long; results older than half of it are not checked against them. */
export const INSIGHT_WRITES_KEPT_MS = 10 * 60_000;

type Check = { mine: string; unchanged: Promise<boolean> };
/**
 * `staleAt`: when the clock alone makes it due for a recompute (`strict`: wrong from then on, so no
 * longer answered); `confirmedAt`: when its label was read or last confirmed (relabelled), which
 * bounds how far back the noted writes must reach to check it.
 */
type Entry = { label: Snapshot; staleAt: number; strict: boolean; confirmedAt: number; value: Promise<unknown>; refreshing: boolean; check: Check | null };
type Running = { label: Promise<Snapshot | null>; value: Promise<unknown>; check: Check | null };

const g = globalThis as unknown as {
  __driftwatchInsightsCache?: { entries: Map<string, Entry>; running: Map<string, Running> };
};
// On globalThis: Next's bundle and the server's direct API path share one cache.
const state = (g.__driftwatchInsightsCache ??= { entries: new Map(), running: new Map() });
const { entries, running } = state;

let hasWarned = false;

/** `pg_snapshot` text (`xmin:xmax:xip,xip`), as read by `SELECT pg_current_snapshot()::text`. */
export function parseSnapshot(text: string): Snapshot | null {
  const m = /^(\d+):(\d+):([\d,]*)$/.exec(text.trim());
  if (!m) return null;
  return { xmin: BigInt(m[1]!), xmax: BigInt(m[2]!), running: m[3] ? m[3].split(",").map((x) => BigInt(x)) : [], text: m[0] };
}

/** True when every transaction finished as of `older` has finished as of `newer` too. */
export function covers(newer: Snapshot, older: Snapshot): boolean {
  if (newer.xmax < older.xmax) return false;
  return newer.running.every((xid) => xid >= older.xmax || older.running.includes(xid));
}

/** The current snapshot, or null where it cannot be read (a standby): then nothing is reused. */
async function currentSnapshot(db: Db): Promise<Snapshot | null> {
  try {
    const snapshot = await getCurrentSnapshot(db);
    return snapshot ? parseSnapshot(snapshot) : null;
  } catch (err) {
    if (!hasWarned) log.warn(`insights are not cached: the transaction snapshot cannot be read (${String(err)})`);
    hasWarned = true;
    return null;
  }
}

export type Freshness<T> = {
  /** How long the clock leaves a result right (default INSIGHTS_CACHE_TTL_MS). */
  ttlMs?: number;
  /**
   * Instead of a TTL: the instant (epoch ms) the clock alone changes the result, given the
   * time it was computed; null when nothing but writes changes it. From that instant the
   * result is not answered: requests wait for (and share) its recompute.
   */
  validUntil?: (value: T, computedAt: number) => number | null;
};

/**
 * `compute()`, or a result that covers the snapshot this request read
 * (`ctx.snapshot`, else now). Past its TTL that result is still answered
 * while a fresh one is computed (see Freshness).
 */
export async function cachedInsight<T>(
  ctx: Pick<RequestCtx, "db" | "now" | "snapshot">,
  key: string,
  compute: () => Promise<T>,
  freshness: Freshness<T> = {},
): Promise<T> {
  const mine = ctx.snapshot ? parseSnapshot(ctx.snapshot) : await currentSnapshot(ctx.db);
  if (mine === null) return compute();
  for (;;) {
    const hit = entries.get(key);
    const expired = hit !== undefined && hit.strict && ctx.now.getTime() >= hit.staleAt;
    if (hit !== undefined && !expired && (covers(hit.label, mine) || (await unchangedFor(ctx, key, hit, mine)))) {
      if (ctx.now.getTime() >= hit.staleAt && !hit.refreshing && !running.has(key)) {
        hit.refreshing = true;
        void start(ctx, key, compute, freshness).catch(() => (hit.refreshing = false));
      }
      return hit.value as Promise<T>;
    }
    const current = running.get(key);
    if (current === undefined) return start(ctx, key, compute, freshness);
    // A computation that read its snapshot after this request did sees everything this request must.
    const label = await current.label.catch(() => null);
    if (label !== null && (covers(label, mine) || (await checkOnce(ctx.db, current, label, mine)))) return current.value as Promise<T>;
    await current.value.catch(() => undefined);
  }
}

/**
 * True when no transaction that wrote what insights show finished between the
 * result's snapshot and `mine`: the result is then what a computation as of
 * `mine` would give. One query, shared by the requests that read the same
 * snapshot. A result too old for the noted writes to reach back to is not checked.
 */
async function unchangedFor(ctx: Pick<RequestCtx, "db" | "now">, key: string, entry: Entry, mine: Snapshot): Promise<boolean> {
  if (ctx.now.getTime() - entry.confirmedAt > INSIGHT_WRITES_KEPT_MS / 2) return false;
  if (!(await checkOnce(ctx.db, entry, entry.label, mine))) return false;
  // Later requests with this snapshot (or one it covers) need no query.
  if (covers(mine, entry.label) && entries.get(key) === entry) {
    entry.label = mine;
    entry.confirmedAt = ctx.now.getTime();
  }
  return true;
}

/** noInsightWritesBetween, asked once for the requests that read the same snapshot (a stored result's or a running computation's). */
function checkOnce(db: Db, holder: { check: Check | null }, label: Snapshot, mine: Snapshot): Promise<boolean> {
  if (holder.check?.mine !== mine.text) holder.check = { mine: mine.text, unchanged: noInsightWritesBetween(db, label, mine) };
  return holder.check.unchanged;
}

async function noInsightWritesBetween(db: Db, label: Snapshot, mine: Snapshot): Promise<boolean> {
  try {
    return await getInsightWritesUnchanged(db, label, mine);
  } catch {
    return false;
  }
}

/** Drops noted writes older than INSIGHT_WRITES_KEPT_MS, and records how far it dropped (the scheduler, each minute). */
export async function pruneInsightWrites(db: Db): Promise<number> {
  return pruneNotedWrites(db, INSIGHT_WRITES_KEPT_MS);
}

/**
 * Computes `key` as its only computation, labelled with a snapshot read first:
 * it covers every request that read its own before, so all of them share it.
 */
async function start<T>(ctx: Pick<RequestCtx, "db" | "now">, key: string, compute: () => Promise<T>, freshness: Freshness<T>): Promise<T> {
  const at = ctx.now.getTime();
  const label = currentSnapshot(ctx.db);
  const value = label.then(() => compute());
  const run: Running = { label, value, check: null };
  running.set(key, run);
  try {
    const result = await value;
    const snapshot = await label;
    if (snapshot !== null) {
      const staleAt = freshness.validUntil ? (freshness.validUntil(result, at) ?? Number.POSITIVE_INFINITY) : at + (freshness.ttlMs ?? INSIGHTS_CACHE_TTL_MS);
      store(key, { label: snapshot, staleAt, strict: freshness.validUntil !== undefined, confirmedAt: at, value, refreshing: false, check: null });
    }
    return result;
  } finally {
    if (running.get(key) === run) running.delete(key);
  }
}

function store(key: string, entry: Entry): void {
  const current = entries.get(key);
  if (current !== undefined && !covers(entry.label, current.label)) return; // a newer state got there first
  entries.delete(key);
  entries.set(key, entry);
  if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
}
