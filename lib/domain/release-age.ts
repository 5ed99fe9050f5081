// The policy's minimum release age: a release alerts only once it is that old,
// counted from its publication (the forge's release date) or, failing that,
// from when Driftwatch first saw the tag. Tags of a repository's first listing
// have no known age: they were out before Driftwatch watched, so they do not wait.
import { parseDuration } from "./duration";
import type { EffectivePolicy } from "./policy";

export type ReleaseDates = {
  /** tag → when Driftwatch first saw it upstream. */
  firstSeen: ReadonlyMap<string, Date>;
  /** tag → the forge's publication date, where one is known. */
  published?: ReadonlyMap<string, Date>;
};

export type HeldRelease = { version: string; waitsUntil: Date; minAge: string };

/** The policy's minimum age in milliseconds, or null when it sets none. */
export function minReleaseAgeMs(policy: Pick<EffectivePolicy, "min_release_age">): number | null {
  return policy.min_release_age === undefined ? null : parseDuration(policy.min_release_age);
}

/** When the repository's tags were first listed (the earliest first-seen instant). */
export function firstListingAt(dates: ReadonlyMap<string, Date>): number {
  let min = Number.POSITIVE_INFINITY;
  for (const d of dates.values()) if (d.getTime() < min) min = d.getTime();
  return min;
}

/**
 * When a release stops waiting, or null when it never waits (no date to count
 * from, or listed in the repository's first check). Never before Driftwatch saw
 * the tag: until then nothing could alert on it anyway.
 */
export function releaseMaturesAt(tag: string, dates: ReleaseDates, minAgeMs: number, firstListedAt = firstListingAt(dates.firstSeen)): Date | null {
  const seen = dates.firstSeen.get(tag)?.getTime();
  const published = dates.published?.get(tag)?.getTime();
  if (published !== undefined) return new Date(Math.max(published + minAgeMs, seen ?? published));
  if (seen === undefined || seen <= firstListedAt) return null;
  return new Date(seen + minAgeMs);
}

/** The tags split into those old enough to alert and those still waiting (with the instant each stops). */
export function splitByReleaseAge(tags: readonly string[], dates: ReleaseDates, minAgeMs: number, now: Date): { mature: string[]; waiting: Map<string, Date> } {
  const firstListedAt = firstListingAt(dates.firstSeen);
  const mature: string[] = [];
  const waiting = new Map<string, Date>();
  for (const tag of tags) {
    const at = releaseMaturesAt(tag, dates, minAgeMs, firstListedAt);
    if (at !== null && at.getTime() > now.getTime()) waiting.set(tag, at);
    else mature.push(tag);
  }
  return { mature, waiting };
}
