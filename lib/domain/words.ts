// The words every page, the report, the checklist, the calendar and the
// notifications use for drift kinds, update reasons and ages: one name per
// fact, so no two places call the same thing differently. Types only from
// elsewhere: client components import this file too.
import type { DifferenceReason } from "@/lib/domain/drift/types";
import type { DriftKind } from "@/lib/domain/policy";

/** The one name of each drift kind, in the spec's order. */
export const DRIFT_KIND_NAME: Readonly<Record<DriftKind, string>> = {
  env: "Behind the previous environment",
  upstream: "Newer release upstream",
  inconsistent: "Targets differ",
  declared: "Differs from Git",
  eol: "End of life",
};

/** The one name of each reason an update is listed for, most urgent first. */
export const REASON_NAME: Readonly<Record<DifferenceReason, string>> = {
  eol_passed: "End of life passed",
  eol_soon: "End of life soon",
  major: "Major release",
  minor: "Minor release",
  behind_previous_env: DRIFT_KIND_NAME.env,
  patch: "Patch release",
};

/** The notification event of a promotion gate refusal, in words (settings, every channel's message). */
export const GATE_REFUSED_NAME = "Gate refused";

/**
 * A drift's state in plain words: `open` drifts are within their alert delay
 * and have notified no one yet; `announced` ones have been notified.
 */
export const DRIFT_STATE_NAME: Readonly<Record<"open" | "announced" | "resolved", string>> = {
  open: "new, not notified yet",
  announced: "notified",
  resolved: "resolved",
};

/** `End of life` → `end of life`, for a name inside a sentence. */
export function inSentence(name: string): string {
  return name.charAt(0).toLowerCase() + name.slice(1);
}

const UNITS = [
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
  ["second", 1_000],
] as const;

const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * An elapsed time in words, its two largest units: `43 days`, `19 hours 1 minute`,
 * `2 minutes`, `12 seconds`. Never `2m`, which reads as months.
 */
export function formatAge(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000)) * 1000;
  const parts: string[] = [];
  let rest = total;
  for (const [word, size] of UNITS) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0 || (parts.length > 0 && parts.length < 2)) parts.push(unit(n, word));
    if (parts.length === 2) break;
  }
  const shown = parts.filter((p) => !p.startsWith("0 "));
  return shown.length > 0 ? shown.join(" ") : "0 seconds";
}

/** How long from `at` until `now`, in words (`3 days 4 hours`); a future `at` counts as no time. */
export function formatAgeSince(at: Date, now: Date): string {
  return formatAge(now.getTime() - at.getTime());
}

/** `3 days ago`, or `just now` under a minute: the largest unit only, for "last seen" notes. */
export function formatAgo(at: Date, now: Date): string {
  const ms = now.getTime() - at.getTime();
  if (ms < 60_000) return "just now";
  return `${formatAge(ms).split(" ").slice(0, 2).join(" ")} ago`;
}

/** Several versions running at once, said plainly: `14.15 and 16.6`; `3 versions, 1.0.0 to 1.4.0`. */
export function listVersions(sortedOldestFirst: readonly string[]): string {
  const v = sortedOldestFirst;
  if (v.length <= 1) return v[0] ?? "";
  if (v.length === 2) return `${v[0]} and ${v[1]}`;
  if (v.length === 3) return `${v[0]}, ${v[1]} and ${v[2]}`;
  return `${v.length} versions, ${v[0]} to ${v[v.length - 1]}`;
}
