// `env` drift: an environment runs an older version than the nearest earlier
// environment (pipeline order) that runs the service. The oldest version of
// each environment stands for it: that is what a promotion has to replace.
import type { DetectContext } from "./detect-context";
import { findOldestInEnv, maxDate, type EnvRuns, type VersionComparator, type VersionSince } from "./runs";
import type { CurrentRun, Difference, HistoryRun } from "./types";

type Candidate = { serviceId: string; previous: EnvRuns; here: EnvRuns; ahead: VersionSince; behind: VersionSince };

export function detectEnvDrift(ctx: DetectContext): Difference[] {
  const candidates: Candidate[] = [];
  for (const [serviceId, byEnv] of ctx.runs) {
    let previous: EnvRuns | null = null;
    for (const env of ctx.environments) {
      const here = byEnv.get(env.id);
      if (here === undefined || here.effective.length === 0) continue;
      if (previous !== null) {
        const ahead = findOldestInEnv(previous, ctx.compare);
        const behind = findOldestInEnv(here, ctx.compare);
        if (ahead !== null && behind !== null && (ctx.compare(ahead.version, behind.version) ?? 0) > 0) {
          candidates.push({ serviceId, previous, here, ahead, behind });
        }
      }
      previous = here;
    }
  }
  const history = collectHistory(ctx.history, candidates);
  return candidates.map(({ serviceId, previous, here, ahead, behind }) => {
    const rows = history.get(serviceId)?.get(previous.environmentId) ?? [];
    const isDeclared = previous.runtime.length === 0;
    const aheadSince = findAheadSince(rows, previous.effective, isDeclared, behind.version, ctx.compare) ?? ahead.since;
    return {
      serviceId,
      environmentId: here.environmentId,
      kind: "env",
      targetId: null,
      running: behind.version,
      expected: ahead.version,
      since: maxDate(aheadSince, behind.since),
      reason: "behind_previous_env",
    };
  });
}

/** History of the environments that are ahead, in one pass; other rows are not looked at twice. */
function collectHistory(history: readonly HistoryRun[], candidates: readonly Candidate[]): Map<string, Map<string, HistoryRun[]>> {
  const out = new Map<string, Map<string, HistoryRun[]>>();
  if (candidates.length === 0) return out;
  for (const c of candidates) {
    let byEnv = out.get(c.serviceId);
    if (byEnv === undefined) out.set(c.serviceId, (byEnv = new Map()));
    byEnv.set(c.previous.environmentId, []);
  }
  for (const row of history) out.get(row.serviceId)?.get(row.environmentId)?.push(row);
  return out;
}

/**
 * When the earlier environment last started to run only versions newer than
 * `behind`: after the last row that ran `behind` or older there ended (a
 * rollback resets it), the first newer row still running from then on.
 */
export function findAheadSince(
  history: readonly HistoryRun[],
  current: readonly CurrentRun[],
  isDeclared: boolean,
  behind: string,
  compare: VersionComparator,
): Date | null {
  const behindEnd = (row: CurrentRun, to: Date | null) => {
    if (to === null || row.declared !== isDeclared || row.version === null) return Number.NEGATIVE_INFINITY;
    const c = compare(row.version, behind);
    return c !== null && c <= 0 ? to.getTime() : Number.NEGATIVE_INFINITY;
  };
  let lastBehindEnd = Number.NEGATIVE_INFINITY;
  for (const row of history) lastBehindEnd = Math.max(lastBehindEnd, behindEnd(row, row.to));

  const aheadStart = (row: CurrentRun, to: Date | null) => {
    if (row.declared !== isDeclared || row.version === null) return Number.POSITIVE_INFINITY;
    if (to !== null && to.getTime() <= lastBehindEnd) return Number.POSITIVE_INFINITY;
    const c = compare(row.version, behind);
    return c !== null && c > 0 ? Math.max(row.since.getTime(), lastBehindEnd) : Number.POSITIVE_INFINITY;
  };
  let start = Number.POSITIVE_INFINITY;
  for (const row of history) start = Math.min(start, aheadStart(row, row.to));
  for (const row of current) start = Math.min(start, aheadStart(row, null));
  return Number.isFinite(start) ? new Date(start) : null;
}
