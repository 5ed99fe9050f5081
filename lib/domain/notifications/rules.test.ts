import { describe, expect, it } from "vitest";
import driftFixture from "@/tests/fixtures/channels/drift-detected.json";
import planFixture from "@/tests/fixtures/channels/upgrade-plan.json";
import gateFixture from "@/tests/fixtures/channels/gate-refused.json";
import type { DriftEventPayload, GateRefusedPayload, UpgradePlanPayload } from "./payloads";
import { payloadForRule, ruleFilterSchema, ruleMatches, type NotificationRuleFilter } from "./rules";

const drift = driftFixture as DriftEventPayload;
const plan = planFixture as UpgradePlanPayload;
const rule = (r: Partial<NotificationRuleFilter>): NotificationRuleFilter => ({ events: [], kinds: [], services: [], environments: [], teams: [], ...r });

describe("ruleMatches: drift events", () => {
  it.each<[string, Partial<NotificationRuleFilter>, boolean]>([
    ["empty rule takes every drift event", {}, true],
    ["event listed", { events: ["drift_detected"] }, true],
    ["other event only", { events: ["drift_resolved"] }, false],
    ["plan only", { events: ["upgrade_plan"] }, false],
    ["kind listed", { kinds: ["upstream", "eol"] }, true],
    ["kind not listed", { kinds: ["env"] }, false],
    ["service listed", { services: ["web"] }, true],
    ["service not listed", { services: ["api"] }, false],
    ["service match is exact", { services: ["We"] }, false],
    ["environment listed", { environments: ["production"] }, true],
    ["environment not listed", { environments: ["staging"] }, false],
    ["team listed", { teams: ["payments"] }, true],
    ["team not listed", { teams: ["data"] }, false],
    ["all filters at once", { events: ["drift_detected"], kinds: ["upstream"], services: ["web"], environments: ["production"], teams: ["payments"] }, true],
    ["one filter failing", { events: ["drift_detected"], kinds: ["upstream"], services: ["web"], environments: ["staging"] }, false],
  ])("%s", (_name, r, expected) => {
    expect(ruleMatches(rule(r), drift)).toBe(expected);
  });

  it("a service without a team matches only rules without a team filter", () => {
    const teamless = { ...drift, team: null };
    expect(ruleMatches(rule({}), teamless)).toBe(true);
    expect(ruleMatches(rule({ teams: ["payments"] }), teamless)).toBe(false);
  });

  it("drift_resolved passes an empty event list", () => {
    expect(ruleMatches(rule({}), { ...drift, event: "drift_resolved", state: "resolved" })).toBe(true);
  });
});

describe("payloadForRule: upgrade plan", () => {
  it("is sent only to rules that name upgrade_plan", () => {
    expect(payloadForRule(rule({}), plan)).toBeNull();
    expect(payloadForRule(rule({ events: ["upgrade_plan"] }), plan)).toEqual(plan);
  });

  it.each<[string, Partial<NotificationRuleFilter>, string[]]>([
    ["environment", { environments: ["staging"] }, ["api", "redis"]],
    ["team", { teams: ["payments"] }, ["web", "api"]],
    ["service", { services: ["postgres", "nope"] }, ["postgres"]],
    ["kind via reason (eol)", { kinds: ["eol"] }, ["postgres"]],
    ["kind via reason (upstream)", { kinds: ["upstream"] }, ["web", "redis"]],
    ["kind via reason (env)", { kinds: ["env"] }, ["api"]],
  ])("filters items by %s", (_name, r, services) => {
    const out = payloadForRule(rule({ events: ["upgrade_plan"], ...r }), plan);
    expect(out?.event === "upgrade_plan" ? out.items.map((i) => i.service) : null).toEqual(services);
  });

  it("is dropped when no item is left", () => {
    expect(payloadForRule(rule({ events: ["upgrade_plan"], services: ["nope"] }), plan)).toBeNull();
    expect(ruleMatches(rule({ events: ["upgrade_plan"], services: ["nope"] }), plan)).toBe(false);
  });
});

describe("ruleFilterSchema", () => {
  it("fills missing lists with empty ones", () => {
    expect(ruleFilterSchema.parse({ events: ["drift_detected"] })).toEqual({ events: ["drift_detected"], kinds: [], services: [], environments: [], teams: [] });
  });
  it("refuses unknown events and kinds", () => {
    expect(ruleFilterSchema.safeParse({ events: ["drift_changed"] }).success).toBe(false);
    expect(ruleFilterSchema.safeParse({ kinds: ["security"] }).success).toBe(false);
  });
});

describe("payloadForRule: gate refusals", () => {
  const refused = gateFixture as GateRefusedPayload;
  it.each<[string, Partial<NotificationRuleFilter>, boolean]>([
    ["not for an empty event list", {}, false],
    ["not for drift events only", { events: ["drift_detected", "drift_resolved"] }, false],
    ["named", { events: ["gate_refused"] }, true],
    ["service listed", { events: ["gate_refused"], services: ["web"] }, true],
    ["service not listed", { events: ["gate_refused"], services: ["api"] }, false],
    ["environment not listed", { events: ["gate_refused"], environments: ["staging"] }, false],
    ["team listed", { events: ["gate_refused"], teams: ["payments"] }, true],
    ["team not listed", { events: ["gate_refused"], teams: ["data"] }, false],
    ["drift kinds do not apply", { events: ["gate_refused"], kinds: ["eol"] }, true],
  ])("%s", (_name, r, expected) => {
    expect(payloadForRule(rule(r), refused)).toEqual(expected ? refused : null);
  });

  it("is an event a rule may name", () => {
    expect(ruleFilterSchema.parse({ events: ["gate_refused"] }).events).toEqual(["gate_refused"]);
  });
});
