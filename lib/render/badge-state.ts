// Which state a badge shows. The spec names the states (up to date, behind,
// needing attention) but not their conditions; these rules decide them. They
// live apart from the renderer so a page can list them without loading satori.
import type { DriftKind } from "@/lib/domain/policy";
import type { UpstreamState } from "@/lib/domain/upstream";

export type BadgeState = "up_to_date" | "behind" | "attention" | "unknown";
export type EolState = "ok" | "soon" | "passed";
export type VersionJump = "major" | "minor" | "patch";

/**
 * An unresolved drift in the badge's scope. A bare kind counts as announced
 * (it has lasted its `drift_alert_after` delay); pass `{ kind, state: "open" }`
 * for a drift that has not, so a rollout in progress does not turn the badge red.
 */
export type BadgeDrift = DriftKind | { kind: DriftKind; state: "open" | "announced" };

export type BadgeStateInput = {
  /** A version is known in scope (something runs, and its tag resolved to a version). */
  hasVersion: boolean;
  /** Every unresolved drift in scope, silenced or not. */
  drifts: readonly BadgeDrift[];
  eolState: EolState | null;
  /** The jump from the running version to the newest release of its line, whatever the policy says. */
  upstreamJump: VersionJump | null;
  /** The service's upstream state; anything but `ok` means "newer releases" is not known. Default `ok`. */
  upstreamState?: UpstreamState;
  /** Every target in scope that runs it is quiet: its last report, not known to run now. */
  quiet?: boolean;
};

export type BadgeRule = { id: string; state: BadgeState; when: string };

type Rule = BadgeRule & { applies: (facts: Facts) => boolean };

type Facts = {
  hasVersion: boolean;
  quiet: boolean;
  eolState: EolState | null;
  isUpstreamKnown: boolean;
  open: ReadonlySet<DriftKind>;
  announced: ReadonlySet<DriftKind>;
};

const UP_TO_DATE: Rule = {
  id: "up_to_date",
  state: "up_to_date",
  when: "Otherwise. Newer releases that the policy does not alert on (smaller than its track, or beyond pin_major) do not count, so the badge agrees with the updates list.",
  applies: () => true,
};

// First match wins. Red means something is wrong now; amber means there is
// work to do that Driftwatch already lists (updates, promotions, a rollout);
// green means nothing that the policy alerts on.
const RULES: readonly Rule[] = [
  {
    id: "no_version",
    state: "unknown",
    when: "No version is known: nothing runs in scope, or only a moving tag that is not resolved to a version yet.",
    applies: (f) => !f.hasVersion,
  },
  {
    id: "quiet",
    state: "unknown",
    when: "Every target that runs it in scope is quiet (no report for longer than DRIFTWATCH_QUIET_AFTER): what it last reported may no longer run, so nothing is shown as live.",
    applies: (f) => f.quiet,
  },
  {
    id: "eol_passed",
    state: "attention",
    when: "The running release cycle is past its end of life.",
    applies: (f) => f.eolState === "passed",
  },
  {
    id: "declared_announced",
    state: "attention",
    when: "What runs has differed from what Git declares for longer than the declared delay (30 minutes by default).",
    applies: (f) => f.announced.has("declared"),
  },
  {
    id: "inconsistent_announced",
    state: "attention",
    when: "Targets of one environment have run different versions for longer than the inconsistent delay (15 minutes by default).",
    applies: (f) => f.announced.has("inconsistent"),
  },
  {
    id: "env_announced",
    state: "attention",
    when: "An environment has run an older version than the environment before it for longer than the env delay (7 days by default): a promotion is stuck.",
    applies: (f) => f.announced.has("env"),
  },
  {
    id: "eol_soon",
    state: "behind",
    when: "The running release cycle reaches its end of life within 60 days.",
    applies: (f) => f.eolState === "soon" || f.open.has("eol") || f.announced.has("eol"),
  },
  {
    id: "upstream",
    state: "behind",
    when: "A newer release is out that the policy alerts on (upstream drift), however large the jump: falling behind is work to plan, not a fault.",
    applies: (f) => f.open.has("upstream") || f.announced.has("upstream"),
  },
  {
    id: "rollout_in_progress",
    state: "behind",
    when: "A rollout or promotion is under way: declared, inconsistent or env drift that has not lasted its delay yet.",
    applies: (f) => f.open.has("declared") || f.open.has("inconsistent") || f.open.has("env"),
  },
  {
    id: "upstream_unknown",
    state: "unknown",
    when: "Nothing above applies and the last upstream check failed, is stale (no success for three check intervals) or never ran: Driftwatch does not know whether a newer release is out.",
    applies: (f) => !f.isUpstreamKnown,
  },
  UP_TO_DATE,
];

/** The rules in the order they are tried; the first that applies sets the state. */
export const BADGE_RULES: readonly BadgeRule[] = RULES.map(({ id, state, when }) => ({ id, state, when }));

/** What else a reader of the badge should know. */
export const BADGE_NOTES: readonly string[] = [
  "Acknowledgements do not change a badge: they quiet notifications, the facts stay.",
  "A badge for all environments shows the most severe state among them; an environment where nothing runs does not turn it grey.",
];

function facts(input: BadgeStateInput): Facts {
  const open = new Set<DriftKind>();
  const announced = new Set<DriftKind>();
  for (const drift of input.drifts) {
    if (typeof drift === "string") announced.add(drift);
    else (drift.state === "open" ? open : announced).add(drift.kind);
  }
  const isUpstreamKnown = (input.upstreamState ?? "ok") === "ok";
  return { hasVersion: input.hasVersion, quiet: input.quiet === true, eolState: input.eolState, isUpstreamKnown, open, announced };
}

/** The state and the rule that chose it, with a note when newer releases are out that the policy ignores. */
export function explainBadgeState(input: BadgeStateInput): { state: BadgeState; rule: BadgeRule; note: string | null } {
  const f = facts(input);
  const rule = RULES.find((r) => r.applies(f)) ?? UP_TO_DATE;
  const note =
    rule.state === "up_to_date" && input.upstreamJump !== null
      ? `A newer ${input.upstreamJump} release is out; the policy does not alert on it.`
      : null;
  return { state: rule.state, rule: { id: rule.id, state: rule.state, when: rule.when }, note };
}

export function badgeState(input: BadgeStateInput): BadgeState {
  return explainBadgeState(input).state;
}

const SEVERITY: Record<BadgeState, number> = { unknown: 0, up_to_date: 1, behind: 2, attention: 3 };

/** The state of a badge for several environments: the most severe; unknown only when all are. */
export function worstBadgeState(states: Iterable<BadgeState>): BadgeState {
  let worst: BadgeState = "unknown";
  for (const state of states) if (SEVERITY[state] > SEVERITY[worst]) worst = state;
  return worst;
}

/**
 * Words shown on the badge and read by screen readers. `behind` reads
 * "outdated": beside a version, "1.9.2 · behind" was read as "behind 1.9.2".
 */
export const BADGE_STATE_TEXT: Record<BadgeState, string> = {
  up_to_date: "up to date",
  behind: "outdated",
  attention: "needs attention",
  unknown: "unknown",
};
