// `upstream` drift: the oldest version running in an environment is behind the
// newest release by at least the tracked jump, within pin_major. The version
// engine decides (selectNewest .alert/.target); this file dates the difference.
import { AppError } from "@/lib/domain/errors";
import type { EffectivePolicy } from "@/lib/domain/policy";
import { selectNewest, type Jump, type NewestResult } from "@/lib/domain/versions";
import type { DetectContext } from "./detect-context";
import { findOldestInEnv, maxDate } from "./runs";
import type { Difference, ServiceInput } from "./types";

type Alert = { target: string; firstAlertSeen: Date | null };

export function detectUpstreamDrift(ctx: DetectContext): Difference[] {
  const out: Difference[] = [];
  const newestOf = rememberNewest();
  // An alert depends on the newest result (tag list, policy, running version) and on when
  // the repository first saw each release: services of one repository share it.
  const alertsBy = new Map<NewestResult, Map<ReadonlyMap<string, Date>, Alert | null>>();
  for (const [serviceId, byEnv] of ctx.runs) {
    const service = ctx.services.get(serviceId);
    if (service === undefined || service.upstream === null) continue;
    const { firstSeen } = service.upstream;
    for (const env of byEnv.values()) {
      const running = findOldestInEnv(env, ctx.compare);
      if (running === null) continue;
      const newest = newestOf(service, running.version);
      if (newest === null) continue;
      let byFirstSeen = alertsBy.get(newest);
      if (byFirstSeen === undefined) alertsBy.set(newest, (byFirstSeen = new Map()));
      let alert = byFirstSeen.get(firstSeen);
      if (alert === undefined) byFirstSeen.set(firstSeen, (alert = findAlert(service, running.version, newest, ctx)));
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
function rememberNewest(): (service: ServiceInput, running: string) => NewestResult | null {
  const memo = new Map<readonly string[], Map<EffectivePolicy, Map<string, NewestResult | null>>>();
  return (service, running) => {
    if (service.upstream === null) return null;
    let byPolicy = memo.get(service.upstream.tags);
    if (byPolicy === undefined) memo.set(service.upstream.tags, (byPolicy = new Map()));
    let byRunning = byPolicy.get(service.policy);
    if (byRunning === undefined) byPolicy.set(service.policy, (byRunning = new Map()));
    let newest = byRunning.get(running);
    if (newest === undefined) byRunning.set(running, (newest = selectNewestOrNull(service, running)));
    return newest;
  };
}

/** Newest result for a running version; null when the policy's tag_filter is invalid (no upstream drift then). */
export function selectNewestOrNull(service: ServiceInput, running: string): NewestResult | null {
  if (service.upstream === null) return null;
  try {
    return selectNewest({ running, tags: service.upstream.tags, policy: service.policy });
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
}

const JUMP_RANK: Readonly<Record<Jump, number>> = { patch: 0, minor: 1, major: 2 };

/**
 * The release the policy alerts on, and when the first release that would
 * have alerted was seen: the difference began then, not when the target came
 * out. A release alerts when it is at least the tracked jump and not newer
 * than the target (which already respects pin_major).
 */
function findAlert(service: ServiceInput, running: string, newest: NewestResult | null, ctx: Pick<DetectContext, "compare" | "jump">): Alert | null {
  if (newest === null || !newest.alert || newest.target === null || service.upstream === null) return null;
  const target = newest.target;
  const { firstSeen } = service.upstream;
  const trackRank = JUMP_RANK[service.policy.track];
  let firstAlertSeen: Date | null = null;
  for (const release of newest.releases) {
    const seen = firstSeen.get(release);
    if (seen === undefined || (firstAlertSeen !== null && seen.getTime() >= firstAlertSeen.getTime())) continue;
    const jump = ctx.jump(running, release);
    if (jump !== null && JUMP_RANK[jump] >= trackRank && (ctx.compare(release, target) ?? 1) <= 0) firstAlertSeen = seen;
  }
  return { target, firstAlertSeen };
}
