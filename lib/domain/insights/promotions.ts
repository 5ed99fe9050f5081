// Promotion candidates: a version that runs in one
// environment while the next environment in pipeline order runs an older one.
import {
  createVersionComparator, findNewestVersion, findOldestVersion, groupCurrentRuns, selectNewestOrNull,
  type CurrentRun, type EnvironmentInfo, type ServiceInput,
} from "@/lib/domain/drift";

export type ReleaseInfo = { published_at: Date | null; release_notes_url: string | null };

export type PromotionRelease = { version: string } & ReleaseInfo;

export type Promotion = {
  service: string;
  from_environment: string;
  to_environment: string;
  /** The oldest version running in to_environment. */
  from_version: string;
  /** The newest version running in from_environment. */
  to_version: string;
  /** Since the waiting version has run in from_environment (its earliest current row). */
  waiting_since: Date;
  waiting_seconds: number;
  /** Every release after from_version up to and including to_version, ascending. */
  releases: PromotionRelease[];
};

export type ListPromotionsInput = {
  environments: readonly EnvironmentInfo[];
  services: readonly ServiceInput[];
  current: readonly CurrentRun[];
  releaseInfo: (serviceId: string, version: string) => ReleaseInfo;
  now: Date;
};

/**
 * One candidate per service and pair of neighbouring environments that run it
 * (an environment that does not run the service is skipped, as for env drift).
 * Longest waiting first.
 */
export function listPromotions(input: ListPromotionsInput): Promotion[] {
  const environments = [...input.environments].sort((a, b) => a.position - b.position);
  const runs = groupCurrentRuns(input.current);
  const compare = createVersionComparator();
  const out: { promotion: Promotion; position: number }[] = [];
  for (const service of input.services) {
    const byEnv = runs.get(service.id);
    if (byEnv === undefined) continue;
    let previous: { env: EnvironmentInfo; rows: readonly CurrentRun[] } | null = null;
    for (const env of environments) {
      const rows = byEnv.get(env.id)?.effective ?? [];
      if (rows.length === 0) continue;
      if (previous !== null) {
        const waiting = findNewestVersion(previous.rows, compare);
        const behind = findOldestVersion(rows, compare);
        if (waiting !== null && behind !== null && (compare(waiting.version, behind.version) ?? 0) > 0) {
          const promotion: Promotion = {
            service: service.name,
            from_environment: previous.env.name,
            to_environment: env.name,
            from_version: behind.version,
            to_version: waiting.version,
            waiting_since: waiting.since,
            waiting_seconds: Math.max(0, Math.floor((input.now.getTime() - waiting.since.getTime()) / 1000)),
            releases: listReleasesBetween(service, behind.version, waiting.version, compare)
              .map((version) => ({ version, ...input.releaseInfo(service.id, version) })),
          };
          out.push({ promotion, position: env.position });
        }
      }
      previous = { env, rows };
    }
  }
  return out
    .sort((a, b) =>
      a.promotion.waiting_since.getTime() - b.promotion.waiting_since.getTime() ||
      a.promotion.service.localeCompare(b.promotion.service) ||
      a.position - b.position)
    .map((x) => x.promotion);
}

/**
 * Upstream releases after `from` up to and including `to`, as the policy
 * counts releases (tag_filter, prerelease). `to` itself is always listed: it
 * runs, whether or not the registry still lists it.
 */
export function listReleasesBetween(
  service: ServiceInput,
  from: string,
  to: string,
  compare: (a: string, b: string) => number | null,
): string[] {
  const releases = selectNewestOrNull(service, from)?.releases ?? [];
  return [...releases.filter((r) => r !== to && (compare(r, to) ?? 1) < 0), to];
}
