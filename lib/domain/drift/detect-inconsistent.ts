// `inconsistent` drift: the targets of one environment run different versions.
// Only runtime rows with an exact version count: declared rows are compared
// by `declared` drift, and an unresolved moving tag proves nothing.
import type { DetectContext } from "./detect-context";
import type { Difference } from "./types";

type VersionGroup = { version: string; targets: Set<string>; since: Date };

export function detectInconsistentDrift(ctx: DetectContext): Difference[] {
  const out: Difference[] = [];
  for (const [serviceId, byEnv] of ctx.runs) {
    for (const env of byEnv.values()) {
      if (env.runtime.length < 2 || isUniform(env.runtime)) continue;
      const groups = groupByVersion(env.runtime);
      if (groups.length < 2) continue;
      const bySince = [...groups].sort((a, b) => a.since.getTime() - b.since.getTime());
      const odd = findOddGroup(groups);
      const oldest = groups.reduce((a, b) => ((ctx.compare(b.version, a.version) ?? 0) < 0 ? b : a));
      const newest = groups.reduce((a, b) => ((ctx.compare(b.version, a.version) ?? 0) > 0 ? b : a));
      const rest = odd === null ? null : groups.find((g) => g !== odd) ?? null;
      out.push({
        serviceId,
        environmentId: env.environmentId,
        kind: "inconsistent",
        targetId: odd === null ? null : ([...odd.targets][0] ?? null),
        running: odd?.version ?? oldest.version,
        expected: rest?.version ?? newest.version,
        since: (bySince[1] as VersionGroup).since,
      });
    }
  }
  return out;
}

function isUniform(rows: readonly { version: string | null }[]): boolean {
  let seen: string | null = null;
  for (const row of rows) {
    if (row.version === null) continue;
    if (seen === null) seen = row.version;
    else if (row.version !== seen) return false;
  }
  return true;
}

function groupByVersion(rows: readonly { version: string | null; targetId: string; since: Date }[]): VersionGroup[] {
  const groups = new Map<string, VersionGroup>();
  for (const row of rows) {
    if (row.version === null) continue;
    const group = groups.get(row.version);
    if (group === undefined) groups.set(row.version, { version: row.version, targets: new Set([row.targetId]), since: row.since });
    else {
      group.targets.add(row.targetId);
      if (row.since < group.since) group.since = row.since;
    }
  }
  return [...groups.values()];
}

/**
 * The one target that differs from all the others: two versions, one run by a
 * single target and the other by at least two others. Two targets that
 * disagree are a tie: neither is singled out.
 */
function findOddGroup(groups: readonly VersionGroup[]): VersionGroup | null {
  if (groups.length !== 2) return null;
  const [a, b] = groups as [VersionGroup, VersionGroup];
  const isOdd = (x: VersionGroup, y: VersionGroup) => x.targets.size === 1 && y.targets.size >= 2 && !y.targets.has([...x.targets][0] as string);
  if (isOdd(a, b)) return a;
  if (isOdd(b, a)) return b;
  return null;
}
