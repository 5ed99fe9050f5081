// What runs where, grouped for the drift rules: per service and environment,
// the runtime rows, the Compose-in-Git rows, and the rows that count as what
// runs (runtime rows, or the declared ones where only Compose files exist).
import { compareTags, jumpBetween, type Jump } from "@/lib/domain/versions";
import type { CurrentRun } from "./types";

export type EnvRuns = {
  environmentId: string;
  runtime: CurrentRun[];
  declared: CurrentRun[];
  /** What the matrix shows: runtime rows, else the declared rows (spec "Declared versus running"). */
  effective: CurrentRun[];
  /** Memo of findOldestVersion(effective); undefined until asked. */
  oldest?: VersionSince | null;
};

/** serviceId → environmentId → rows. */
export type RunsByService = Map<string, Map<string, EnvRuns>>;

/** serviceId → environmentId → exact versions that count as running there. */
export type RunningVersions = ReadonlyMap<string, ReadonlyMap<string, readonly string[]>>;

export type VersionComparator = (a: string, b: string) => number | null;

/** compareTags with a per-evaluation cache: the same few versions are compared many times. */
export function createVersionComparator(): VersionComparator {
  const compare = memoizePair(compareTags);
  return (a, b) => (a === b ? 0 : compare(a, b));
}

export type JumpFinder = (from: string, to: string) => Jump | null;

/** jumpBetween with a per-evaluation cache, as createVersionComparator. */
export function createJumpFinder(): JumpFinder {
  return memoizePair(jumpBetween);
}

/** `fn` with its results kept per pair of arguments, for one evaluation's lifetime (`fn` never returns undefined). */
function memoizePair<R extends NonNullable<unknown> | null>(fn: (a: string, b: string) => R): (a: string, b: string) => R {
  const cache = new Map<string, Map<string, R>>();
  return (a, b) => {
    let row = cache.get(a);
    if (row === undefined) cache.set(a, (row = new Map()));
    let hit = row.get(b);
    if (hit === undefined) {
      hit = fn(a, b);
      row.set(b, hit);
    }
    return hit;
  };
}

export function groupCurrentRuns(current: readonly CurrentRun[]): RunsByService {
  const out: RunsByService = new Map();
  for (const run of current) {
    let byEnv = out.get(run.serviceId);
    if (byEnv === undefined) out.set(run.serviceId, (byEnv = new Map()));
    let env = byEnv.get(run.environmentId);
    if (env === undefined) {
      env = { environmentId: run.environmentId, runtime: [], declared: [], effective: [] };
      byEnv.set(run.environmentId, env);
    }
    (run.declared ? env.declared : env.runtime).push(run);
  }
  for (const byEnv of out.values()) {
    for (const env of byEnv.values()) env.effective = env.runtime.length > 0 ? env.runtime : env.declared;
  }
  return out;
}

export type VersionSince = { version: string; since: Date };

/** The oldest version that counts as running in an environment, computed once per evaluation. */
export function findOldestInEnv(env: EnvRuns, compare: VersionComparator): VersionSince | null {
  if (env.oldest === undefined) env.oldest = findOldestVersion(env.effective, compare);
  return env.oldest;
}

/**
 * The oldest exact version among the rows, with the earliest `since` of the
 * rows that run it. Rows without a version are ignored; versions that are not
 * comparable like with like keep the one that started first.
 */
export function findOldestVersion(rows: readonly CurrentRun[], compare: VersionComparator): VersionSince | null {
  return pickVersion(rows, compare, -1);
}

/** The newest exact version among the rows, as findOldestVersion. */
export function findNewestVersion(rows: readonly CurrentRun[], compare: VersionComparator): VersionSince | null {
  return pickVersion(rows, compare, 1);
}

function pickVersion(rows: readonly CurrentRun[], compare: VersionComparator, sign: 1 | -1): VersionSince | null {
  let best: VersionSince | null = null;
  for (const row of rows) {
    if (row.version === null) continue;
    if (best === null) {
      best = { version: row.version, since: row.since };
      continue;
    }
    const c = row.version === best.version ? 0 : compare(row.version, best.version);
    if (c === 0) {
      if (row.since < best.since) best = { version: best.version, since: row.since };
    } else if (c === null ? row.since < best.since : c * sign > 0) {
      best = { version: row.version, since: row.since };
    }
  }
  return best;
}

/** Distinct exact versions of the rows, each with the earliest `since` of its rows. */
export function listVersions(rows: readonly CurrentRun[]): VersionSince[] {
  const seen = new Map<string, Date>();
  for (const row of rows) {
    if (row.version === null) continue;
    const since = seen.get(row.version);
    if (since === undefined || row.since < since) seen.set(row.version, row.since);
  }
  return [...seen].map(([version, since]) => ({ version, since }));
}

/** The versions that count as running, per service and environment: acknowledgements are lifted by them. */
export function indexRunningVersions(current: readonly CurrentRun[]): RunningVersions {
  type Sets = { runtime: Set<string>; declared: Set<string> };
  const sets = new Map<string, Map<string, Sets>>();
  for (const run of current) {
    let byEnv = sets.get(run.serviceId);
    if (byEnv === undefined) sets.set(run.serviceId, (byEnv = new Map()));
    let env = byEnv.get(run.environmentId);
    if (env === undefined) byEnv.set(run.environmentId, (env = { runtime: new Set(), declared: new Set() }));
    // A runtime row without a version still means the declared rows no longer count there.
    if (run.declared) {
      if (run.version !== null) env.declared.add(run.version);
    } else env.runtime.add(run.version ?? "");
  }
  const out = new Map<string, Map<string, string[]>>();
  for (const [serviceId, byEnv] of sets) {
    const envs = new Map<string, string[]>();
    for (const [environmentId, { runtime, declared }] of byEnv) {
      envs.set(environmentId, runtime.size > 0 ? [...runtime].filter((v) => v !== "") : [...declared]);
    }
    out.set(serviceId, envs);
  }
  return out;
}

export function maxDate(a: Date, b: Date): Date {
  return a.getTime() >= b.getTime() ? a : b;
}
