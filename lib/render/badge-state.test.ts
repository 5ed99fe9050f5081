import { describe, expect, it } from "vitest";
import {
  BADGE_RULES,
  badgeState,
  explainBadgeState,
  worstBadgeState,
  type BadgeState,
  type BadgeStateInput,
} from "./badge-state";

const base: BadgeStateInput = { hasVersion: true, drifts: [], eolState: null, upstreamJump: null };
const open = (kind: "env" | "upstream" | "inconsistent" | "declared" | "eol") => ({ kind, state: "open" as const });
const announced = (kind: "env" | "upstream" | "inconsistent" | "declared" | "eol") => ({ kind, state: "announced" as const });

describe("badgeState", () => {
  it.each<[string, Partial<BadgeStateInput>, BadgeState, string]>([
    ["nothing runs", { hasVersion: false }, "unknown", "no_version"],
    ["no version even with drift and eol passed", { hasVersion: false, drifts: ["declared"], eolState: "passed" }, "unknown", "no_version"],
    ["clean", {}, "up_to_date", "up_to_date"],
    ["every target quiet: grey, never green", { quiet: true }, "unknown", "quiet"],
    ["every target quiet, even with eol passed: its last report is not live", { quiet: true, eolState: "passed" }, "unknown", "quiet"],
    ["some target still reporting", { quiet: false, eolState: "passed" }, "attention", "eol_passed"],
    ["eol ok", { eolState: "ok" }, "up_to_date", "up_to_date"],
    ["newer patch the policy ignores", { upstreamJump: "patch" }, "up_to_date", "up_to_date"],
    ["newer major beyond pin_major", { upstreamJump: "major" }, "up_to_date", "up_to_date"],
    ["eol passed", { eolState: "passed" }, "attention", "eol_passed"],
    ["eol passed with its drift", { eolState: "passed", drifts: ["eol"] }, "attention", "eol_passed"],
    ["eol passed beats upstream", { eolState: "passed", drifts: ["upstream"], upstreamJump: "major" }, "attention", "eol_passed"],
    ["eol soon", { eolState: "soon" }, "behind", "eol_soon"],
    ["eol drift without a state", { drifts: ["eol"] }, "behind", "eol_soon"],
    ["eol drift while state says ok", { drifts: [open("eol")], eolState: "ok" }, "behind", "eol_soon"],
    ["declared, announced (bare kind)", { drifts: ["declared"] }, "attention", "declared_announced"],
    ["declared, announced", { drifts: [announced("declared")] }, "attention", "declared_announced"],
    ["declared, still open: rollout", { drifts: [open("declared")] }, "behind", "rollout_in_progress"],
    ["inconsistent, announced", { drifts: ["inconsistent"] }, "attention", "inconsistent_announced"],
    ["inconsistent, open: rolling deploy", { drifts: [open("inconsistent")] }, "behind", "rollout_in_progress"],
    ["env, announced: promotion stuck", { drifts: [announced("env")] }, "attention", "env_announced"],
    ["env, open: promotion waiting", { drifts: [open("env")] }, "behind", "rollout_in_progress"],
    ["upstream patch", { drifts: ["upstream"], upstreamJump: "patch" }, "behind", "upstream"],
    ["upstream major", { drifts: ["upstream"], upstreamJump: "major" }, "behind", "upstream"],
    ["upstream open", { drifts: [open("upstream")], upstreamJump: "minor" }, "behind", "upstream"],
    ["upstream, jump unknown (flavour tag)", { drifts: ["upstream"] }, "behind", "upstream"],
    ["eol soon beats upstream", { eolState: "soon", drifts: ["upstream"] }, "behind", "eol_soon"],
    ["announced beats open of another kind", { drifts: [open("env"), announced("inconsistent")] }, "attention", "inconsistent_announced"],
    ["same kind open and announced: announced wins", { drifts: [open("declared"), announced("declared")] }, "attention", "declared_announced"],
    ["declared first among several", { drifts: ["env", "inconsistent", "declared"] }, "attention", "declared_announced"],
    ["upstream check failed, nothing else: grey, never green", { upstreamState: "failed" }, "unknown", "upstream_unknown"],
    ["upstream stale, nothing else", { upstreamState: "stale" }, "unknown", "upstream_unknown"],
    ["upstream never checked, nothing else", { upstreamState: "unchecked" }, "unknown", "upstream_unknown"],
    ["upstream ok: green", { upstreamState: "ok" }, "up_to_date", "up_to_date"],
    ["upstream failed but eol passed: still red", { upstreamState: "failed", eolState: "passed" }, "attention", "eol_passed"],
    ["upstream failed, old upstream drift still open: behind", { upstreamState: "failed", drifts: ["upstream"] }, "behind", "upstream"],
    ["upstream failed, rollout under way: behind", { upstreamState: "failed", drifts: [open("env")] }, "behind", "rollout_in_progress"],
    ["upstream failed, a jump the policy ignores: no note", { upstreamState: "failed", upstreamJump: "minor" }, "unknown", "upstream_unknown"],
  ])("%s", (_name, input, state, ruleId) => {
    const explained = explainBadgeState({ ...base, ...input });
    expect(explained.state).toBe(state);
    expect(explained.rule.id).toBe(ruleId);
    expect(badgeState({ ...base, ...input })).toBe(state);
  });

  it("notes newer releases that the policy does not alert on", () => {
    expect(explainBadgeState({ ...base, upstreamJump: "minor" }).note).toBe("A newer minor release is out; the policy does not alert on it.");
    expect(explainBadgeState({ ...base, drifts: ["upstream"], upstreamJump: "minor" }).note).toBeNull();
  });

  it("documents every rule in order, one per id, ending with the catch-all", () => {
    expect(BADGE_RULES.map((r) => r.id)).toEqual([
      "no_version",
      "quiet",
      "eol_passed",
      "declared_announced",
      "inconsistent_announced",
      "env_announced",
      "eol_soon",
      "upstream",
      "rollout_in_progress",
      "upstream_unknown",
      "up_to_date",
    ]);
    for (const rule of BADGE_RULES) expect(rule.when.length).toBeGreaterThan(20);
  });
});

describe("worstBadgeState", () => {
  it.each<[BadgeState[], BadgeState]>([
    [[], "unknown"],
    [["unknown"], "unknown"],
    [["unknown", "up_to_date"], "up_to_date"],
    [["up_to_date", "behind", "unknown"], "behind"],
    [["behind", "attention", "up_to_date"], "attention"],
  ])("%j → %s", (states, expected) => {
    expect(worstBadgeState(states)).toBe(expected);
  });
});
