// When the clock alone changes what an evaluation would find: nothing else
// written, the same inputs give the same plan until then. The scheduler skips
// a workspace whose inputs have not changed since its last evaluation, up to
// this instant (lib/services/drift/evaluation-marker.ts).
import type { EffectivePolicy } from "@/lib/domain/policy";
import { EOL_SOON_DAYS } from "@/lib/domain/eol";
import { minReleaseAgeMs, splitByReleaseAge } from "@/lib/domain/release-age";
import { alertDelayMs, type LifecyclePlan } from "./lifecycle";
import type { DriftRecord, ServiceInput } from "./types";

const SOON_MS = EOL_SOON_DAYS * 86_400_000;

export type ClockInput = {
  /** The live records the plan was made from. */
  records: readonly DriftRecord[];
  plan: LifecyclePlan;
  policies: ReadonlyMap<string, EffectivePolicy>;
  services: readonly Pick<ServiceInput, "eol" | "policy" | "upstream">[];
  now: Date;
};

/**
 * The first instant after `now` at which the clock changes the outcome of the
 * same inputs, or null when only new data can:
 * - a drift not yet announced is announced once its kind's delay has passed
 *   (lifecycle.ts, `isDue`);
 * - a running cycle's end of life comes within EOL_SOON_DAYS, and when it
 *   passes (its drift then dates from that day; detect-eol.ts; every cycle a
 *   service runs counts, not only the first to end);
 * - a release reaches the policy's minimum release age (release-age.ts).
 *
 * Not instants: an acknowledgement's expiry (it decides whether an event is
 * silenced, and events only come from the changes above or from new data).
 */
export function nextClockChange({ records, plan, policies, services, now }: ClockInput): Date | null {
  const t = now.getTime();
  let next = Number.POSITIVE_INFINITY;
  const consider = (at: number) => {
    if (at > t && at < next) next = at;
  };

  const settled = new Set<string>([...plan.toAnnounce.map((a) => a.id), ...plan.toResolve.map((r) => r.id)]);
  for (const r of records) {
    if (r.state === "open" && !settled.has(r.id)) consider(r.openedAt.getTime() + alertDelayMs(policies.get(r.serviceId), r.kind));
  }
  for (const d of plan.toOpen) {
    if (d.announcedAt === null) consider(d.since.getTime() + alertDelayMs(policies.get(d.serviceId), d.kind));
  }

  for (const s of services) {
    for (const cycle of s.eol.values()) {
      const end = cycle?.eolDate?.getTime();
      if (end === undefined) continue;
      consider(end - SOON_MS);
      consider(end);
    }
    const minAge = minReleaseAgeMs(s.policy);
    if (minAge !== null && s.upstream !== null) {
      for (const at of splitByReleaseAge(s.upstream.tags, s.upstream, minAge, now).waiting.values()) consider(at.getTime());
    }
  }
  return Number.isFinite(next) ? new Date(next) : null;
}
