// The promotion gate: may this version run in this environment now? It may
// when it has run in the previous environment, on any of its targets, for at
// least the soak time summed over its runs there (overlapping runs counted
// once), unless its cycle's end of life has passed. A version that ran in this
// environment before is a rollback and always allowed; the first environment
// needs nothing. What Driftwatch cannot place (a service it has never seen, a
// version it cannot work out) follows the `unknown` setting.
import { parseTag } from "../versions/parse";
import { formatAge } from "../words";
import type { GateMode, GateSettings } from "./settings";

export const GATE_REASON_CODES = ["not_in_previous_environment", "soak_not_met", "eol_passed", "unknown_service", "unknown_version"] as const;
export type GateReasonCode = (typeof GATE_REASON_CODES)[number];
export type GateReason = { code: GateReasonCode; detail: string };

/** One run of the service, with its exact version (null when it could not be worked out). */
export type GateRun = { environment: string; version: string | null; from: Date; to: Date | null };

export type GateEol = { product: string; cycle: string; eolDate: string | null; passed: boolean };

export type GateQuestion = {
  settings: GateSettings;
  /** The environment asked about, and the one before it in the pipeline (null: the first). */
  environment: string;
  previous: string | null;
  /** False when Driftwatch has never seen the service. */
  isKnownService: boolean;
  /** The exact version asked about; null when it could not be worked out (an unresolved moving tag). */
  version: string | null;
  /** What was asked, for the details: the version or the image reference. */
  asked: string;
  /** Every run of the service in this environment and the previous one. */
  runs: readonly GateRun[];
  /** The end of life of the version's cycle, where known. */
  eol: GateEol | null;
  now: Date;
};

export type GateDecision = { allowed: boolean; mode: GateMode; version: string | null; reasons: GateReason[] };

/** The decision, as the settings' mode turns the reasons into an answer. */
export function decideGate(q: GateQuestion): GateDecision {
  const { mode } = q.settings;
  if (mode === "off") return { allowed: true, mode, version: q.version, reasons: [] };
  const reasons = reasonsFor(q);
  return { allowed: mode === "audit" || reasons.length === 0, mode, version: q.version, reasons };
}

/** Why the version may not run there; empty when it may. Independent of the mode. */
export function reasonsFor(q: GateQuestion): GateReason[] {
  const refuseUnknown = q.settings.unknown === "refuse";
  if (!q.isKnownService) {
    return refuseUnknown ? [{ code: "unknown_service", detail: "Driftwatch has never seen this service run anywhere." }] : [];
  }
  if (q.version === null) {
    return refuseUnknown ? [{ code: "unknown_version", detail: `The exact version of ${q.asked} is not known (a moving tag whose digest has not been resolved).` }] : [];
  }
  const version = q.version;
  // A rollback: it ran here before.
  if (q.runs.some((r) => r.environment === q.environment && r.version === version && r.from.getTime() <= q.now.getTime())) return [];

  const reasons: GateReason[] = [];
  if (q.previous !== null) {
    const previous = q.previous;
    const inPrevious = q.runs.filter((r) => r.environment === previous && r.from.getTime() <= q.now.getTime());
    const ran = inPrevious.filter((r) => r.version === version);
    if (ran.length === 0) {
      const forms = otherFormsOf(version, inPrevious);
      const hint = forms.length > 0 ? ` ${forms.join(", ")} ${forms.length === 1 ? "has" : "have"}.` : "";
      reasons.push({ code: "not_in_previous_environment", detail: `${version} has not run in ${previous}.${hint}` });
    } else {
      const soaked = soakedMs(ran, q.now);
      if (soaked < q.settings.soakMs) {
        const left = q.settings.soakMs - soaked;
        reasons.push({
          code: "soak_not_met",
          detail: `${formatAge(left)} of soak left in ${previous} (${version} ran ${formatAge(soaked)} of ${formatAge(q.settings.soakMs)}).`,
        });
      }
    }
  }
  if (q.settings.refuseEol && q.eol?.passed) {
    reasons.push({ code: "eol_passed", detail: `${q.eol.product} ${q.eol.cycle} reached its end of life${q.eol.eolDate ? ` on ${q.eol.eolDate}` : ""}.` });
  }
  return reasons;
}

/**
 * The same release under other tags among the runs (`7.4.2-alpine` or `v7.4.2` for `7.4.2`): a gate
 * matches the exact tag deployed, so a refusal names what did run, newest first, at most three.
 */
function otherFormsOf(version: string, runs: readonly GateRun[]): string[] {
  const asked = parseTag(version);
  if (asked.kind !== "version") return [];
  const release = (t: ReturnType<typeof parseTag>) => `${t.numbers.join(".")}-${t.prerelease ?? ""}`;
  const forms = new Map<string, number>();
  for (const r of runs) {
    if (r.version === null || r.version === version) continue;
    const t = parseTag(r.version);
    if (t.kind === "version" && release(t) === release(asked)) forms.set(r.version, Math.max(forms.get(r.version) ?? 0, r.from.getTime()));
  }
  return [...forms].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([v]) => v);
}

/** Time covered by the runs up to `now`, overlaps counted once. */
export function soakedMs(runs: readonly Pick<GateRun, "from" | "to">[], now: Date): number {
  const end = now.getTime();
  const spans = runs
    .map((r) => [r.from.getTime(), Math.min(r.to?.getTime() ?? end, end)] as const)
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  let total = 0;
  let start = Number.NEGATIVE_INFINITY, stop = Number.NEGATIVE_INFINITY;
  for (const [a, b] of spans) {
    if (a > stop) {
      if (stop > start) total += stop - start;
      start = a;
      stop = b;
    } else if (b > stop) stop = b;
  }
  if (stop > start) total += stop - start;
  return total;
}

/** How long until the soak is met (0 once met), for the "waits" line on the service page. */
export function soakLeftMs(q: Pick<GateQuestion, "runs" | "previous" | "settings" | "now">, version: string): number | null {
  if (q.previous === null) return 0;
  const ran = q.runs.filter((r) => r.environment === q.previous && r.version === version && r.from.getTime() <= q.now.getTime());
  if (ran.length === 0) return null;
  return Math.max(0, q.settings.soakMs - soakedMs(ran, q.now));
}
