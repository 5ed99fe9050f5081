// `upstream` drift: the oldest version running in an environment is behind the
// newest release by at least the tracked jump, within pin_major. The version
// engine decides (selectNewest .alert/.target); this file dates the difference:
// from the release's publication (the forge's date, else when its tag was first
// seen), never before the running version began running there.
import { AppError } from "@/lib/domain/errors";
import type { EffectivePolicy } from "@/lib/domain/policy";
import { firstListingAt, minReleaseAgeMs, releaseMaturesAt, splitByReleaseAge, type HeldRelease } from "@/lib/domain/release-age";
import { selectNewest, type Jump, type NewestResult } from "@/lib/domain/versions";
import type { DetectContext } from "./detect-context";
import { findOldestInEnv, maxDate } from "./runs";
import type { Difference, ServiceInput, UpstreamInfo } from "./types";

type Alert = { target: string; firstAlertSeen: Date | null };

export function detectUpstreamDrift(ctx: DetectContext): Difference[] {
  const out: Difference[] = [];
  const newestOf = rememberNewest(ctx.now);
  // An alert depends on the newest result (tag list, policy, running version) and on the
  // release dates (publication, else first sighting): services of one repository share them.
  const alertsBy = new Map<NewestResult, Map<ReadonlyMap<string, Date>, Alert | null>>();
  for (const [serviceId, byEnv] of ctx.runs) {
    const service = ctx.services.get(serviceId);
    if (service === undefined || service.upstream === null) continue;
    const dates = service.upstream.published ?? service.upstream.firstSeen;
    for (const env of byEnv.values()) {
      const running = findOldestInEnv(env, ctx.compare);
      if (running === null) continue;
      const newest = newestOf(service, running.version);
      if (newest === null) continue;
      let byFirstSeen = alertsBy.get(newest);
      if (byFirstSeen === undefined) alertsBy.set(newest, (byFirstSeen = new Map()));
      let alert = byFirstSeen.get(dates);
      if (alert === undefined) byFirstSeen.set(dates, (alert = findAlert(service, running.version, newest, ctx)));
      if (alert === null) continue;
      out.push({
        serviceId,
        environmentId: env.environmentId,
        kind: "upstream",
        targetId: null,
        running: running.version,
        expected: alert.target,
        since: alert.firstAlertSeen === null ? running.since : maxDate(alert.firstAlertSeen, running.since),
        reason: ctx.jump(running.version, alert.target) ?? "patch",
      });
    }
  }
  return out;
}

/**
 * selectNewestOrNull, remembered per tag list, policy and running version: the
 * answer depends on nothing else, and services of one repository (or of
 * repositories released in step) share their tag list and often their policy.
 */
function rememberNewest(now: Date): (service: ServiceInput, running: string) => NewestResult | null {
  const memo = new Map<readonly string[], Map<EffectivePolicy, Map<string, NewestResult | null>>>();
  return (service, running) => {
    if (service.upstream === null) return null;
    const tags = alertingTagsOf(service, now);
    let byPolicy = memo.get(tags);
    if (byPolicy === undefined) memo.set(tags, (byPolicy = new Map()));
    let byRunning = byPolicy.get(service.policy);
    if (byRunning === undefined) byPolicy.set(service.policy, (byRunning = new Map()));
    let newest = byRunning.get(running);
    if (newest === undefined) byRunning.set(running, (newest = selectNewestOrNull(service, running, now)));
    return newest;
  };
}

type AgeSplit = { at: number; mature: string[]; waiting: Map<string, Date> };
const splits = new WeakMap<UpstreamInfo, Map<number, AgeSplit>>();

/** The tags old enough to alert at `now` under the policy's minimum release age (all tags without one); one array per instant. */
function ageSplitOf(upstream: UpstreamInfo, minAgeMs: number, now: Date): AgeSplit {
  let byAge = splits.get(upstream);
  if (byAge === undefined) splits.set(upstream, (byAge = new Map()));
  let split = byAge.get(minAgeMs);
  if (split === undefined || split.at !== now.getTime()) byAge.set(minAgeMs, (split = { at: now.getTime(), ...splitByReleaseAge(upstream.tags, upstream, minAgeMs, now) }));
  return split;
}

function alertingTagsOf(service: ServiceInput, now: Date | undefined): readonly string[] {
  if (service.upstream === null) return [];
  const minAge = now === undefined ? null : minReleaseAgeMs(service.policy);
  return minAge === null || now === undefined ? service.upstream.tags : ageSplitOf(service.upstream, minAge, now).mature;
}

/**
 * Newest result for a running version; null when the policy's tag_filter is invalid (no upstream drift then).
 * With `now`, releases younger than the policy's minimum release age are left out: what alerts then.
 */
export function selectNewestOrNull(service: ServiceInput, running: string, now?: Date): NewestResult | null {
  if (service.upstream === null) return null;
  try {
    return selectNewest({ running, tags: alertingTagsOf(service, now), policy: service.policy });
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
}

/**
 * The release that would alert for a running version but is younger than the
 * policy's minimum age ("3.0.0 waits until Nov 30"), or null when none waits.
 */
export function findWaitingRelease(service: ServiceInput, running: string, now: Date): HeldRelease | null {
  const minAge = minReleaseAgeMs(service.policy);
  if (minAge === null || service.upstream === null || service.policy.min_release_age === undefined) return null;
  const target = selectNewestOrNull(service, running)?.target ?? null;
  const waitsUntil = target === null ? undefined : ageSplitOf(service.upstream, minAge, now).waiting.get(target);
  return target === null || waitsUntil === undefined ? null : { version: target, waitsUntil, minAge: service.policy.min_release_age };
}

/**
 * Every newer release of the running line that the minimum release age holds back now, oldest
 * first, with the instant it stops waiting; [] without a minimum age.
 */
export function listHeldReleases(service: ServiceInput, running: string, now: Date): { version: string; until: Date }[] {
  const minAge = minReleaseAgeMs(service.policy);
  if (minAge === null || service.upstream === null) return [];
  const releases = selectNewestOrNull(service, running)?.releases ?? [];
  if (releases.length === 0) return [];
  const { waiting } = ageSplitOf(service.upstream, minAge, now);
  return releases.flatMap((version) => {
    const until = waiting.get(version);
    return until === undefined ? [] : [{ version, until }];
  });
}

const JUMP_RANK: Readonly<Record<Jump, number>> = { patch: 0, minor: 1, major: 2 };

/**
 * The release the policy alerts on, and when the first release that would
 * have alerted came out (published, else first seen): the difference began
 * then, not when the target came out. A release alerts when it is at least the
 * tracked jump and not newer than the target (which already respects
 * pin_major); under a minimum release age it could alert only once old enough.
 */
function findAlert(service: ServiceInput, running: string, newest: NewestResult | null, ctx: Pick<DetectContext, "compare" | "jump">): Alert | null {
  if (newest === null || !newest.alert || newest.target === null || service.upstream === null) return null;
  const target = newest.target;
  const upstream = service.upstream;
  const minAge = minReleaseAgeMs(service.policy);
  const firstListedAt = minAge === null ? 0 : firstListingAt(upstream.firstSeen);
  const trackRank = JUMP_RANK[service.policy.track];
  let firstAlertSeen: Date | null = null;
  for (const release of newest.releases) {
    const seen = (minAge === null ? upstream.published?.get(release) : releaseMaturesAt(release, upstream, minAge, firstListedAt)) ?? upstream.firstSeen.get(release);
    if (seen === undefined || (firstAlertSeen !== null && seen.getTime() >= firstAlertSeen.getTime())) continue;
    const jump = ctx.jump(running, release);
    if (jump !== null && JUMP_RANK[jump] >= trackRank && (ctx.compare(release, target) ?? 1) <= 0) firstAlertSeen = seen;
  }
  return { target, firstAlertSeen };
}
