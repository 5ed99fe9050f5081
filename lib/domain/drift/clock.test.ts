import { describe, expect, it } from "vitest";
import { DEFAULT_POLICY } from "@/lib/domain/policy";
import { nextClockChange } from "./clock";
import { detectDifferences } from "./detect";
import { planLifecycle, type LifecyclePlan } from "./lifecycle";
import { ago, ENVS, makeService, NOW, run } from "./test-support";
import type { CurrentRun, DriftRecord, ServiceInput } from "./types";

const DAY = 86_400_000;

/** One evaluation of fixed inputs at `at`: detection, then the plan against `records`. */
function evaluate(service: ServiceInput, current: CurrentRun[], records: DriftRecord[], at: Date): LifecyclePlan {
  const differences = detectDifferences({ environments: ENVS, services: [service], current, history: [], now: at });
  return planLifecycle({ records, differences, policies: new Map([[service.id, service.policy]]), acks: [], currentVersions: new Map(), now: at });
}

/** The live records once `plan` is applied, as persistPlan stores them. */
function apply(records: DriftRecord[], plan: LifecyclePlan): DriftRecord[] {
  const resolved = new Set(plan.toResolve.map((r) => r.id));
  const announced = new Map(plan.toAnnounce.map((a) => [a.id, a.announcedAt] as const));
  const kept = records.filter((r) => !resolved.has(r.id)).map((r) => (announced.has(r.id) ? { ...r, state: "announced" as const, announcedAt: announced.get(r.id)! } : r));
  const opened = plan.toOpen.map((d, i): DriftRecord => ({
    id: `new-${i}`, serviceId: d.serviceId, environmentId: d.environmentId, kind: d.kind, targetId: d.targetId, running: d.running, expected: d.expected,
    state: d.announcedAt ? "announced" : "open", openedAt: d.since, announcedAt: d.announcedAt, resolvedAt: null,
  }));
  return [...kept, ...opened];
}

const isEmpty = (p: LifecyclePlan) => p.toOpen.length + p.toAnnounce.length + p.toResolve.length + p.toUpdate.length + p.events.length === 0;

/** Evaluates at NOW, and returns the next instant with the plan just before it and at it (same inputs, records applied). */
function around(service: ServiceInput, current: CurrentRun[]) {
  const first = evaluate(service, current, [], NOW);
  const records = apply([], first);
  const next = nextClockChange({ records: [], plan: first, policies: new Map([[service.id, service.policy]]), services: [service], now: NOW });
  return {
    next,
    before: next && evaluate(service, current, records, new Date(next.getTime() - 1)),
    at: next && evaluate(service, current, records, next),
    // Evaluating once more at NOW with the records applied changes nothing: what the skip relies on.
    again: evaluate(service, current, records, NOW),
  };
}

const cycle = (eolDate: Date) => ({ product: "nginx", cycle: "1.26", eolDate });

describe("the next instant the clock changes an evaluation", () => {
  it.each<[string, ServiceInput, CurrentRun[], Date]>([
    [
      "targets of one environment disagree: announced 15 minutes after they began to",
      makeService(),
      [run("prod", "p1", "1.2.0", ago(0, 10)), run("prod", "p2", "1.1.0", ago(3))],
      new Date(ago(0, 10).getTime() + 15 * 60_000),
    ],
    [
      "staging ahead of production: announced after 7 days",
      makeService(),
      [run("staging", "s1", "1.3.0", ago(2)), run("prod", "p1", "1.2.0", ago(9))],
      new Date(ago(2).getTime() + 7 * DAY),
    ],
    [
      "a policy's own delay",
      makeService({ policy: { drift_alert_after: { env: "3d" } } }),
      [run("staging", "s1", "1.3.0", ago(2)), run("prod", "p1", "1.2.0", ago(9))],
      new Date(ago(2).getTime() + 3 * DAY),
    ],
    [
      "a running cycle ends in 90 days: drift 60 days before",
      makeService({ eol: new Map([["1.26.2", cycle(ago(-90))]]) }),
      [run("prod", "p1", "1.26.2", ago(200))],
      ago(-30),
    ],
  ])("%s", (_name, service, current, expected) => {
    const { next, before, at, again } = around(service, current);
    expect(next).toEqual(expected);
    expect(isEmpty(again)).toBe(true);
    expect(isEmpty(before!)).toBe(true);
    expect(isEmpty(at!)).toBe(false);
  });

  it("is null when nothing waits on the clock: announced drift, no end of life ahead", () => {
    const service = makeService({ eol: new Map([["1.26.2", cycle(ago(10))]]) });
    const { next, again } = around(service, [run("prod", "p1", "1.26.2", ago(200))]);
    expect(next).toBeNull();
    expect(isEmpty(again)).toBe(true);
  });

  it("takes the earliest of several", () => {
    const service = makeService({ eol: new Map([["1.2.0", cycle(ago(-61))]]) });
    // Env drift due in 5 days; production's cycle comes within 60 days of its end in one.
    const { next } = around(service, [run("staging", "s1", "1.3.0", ago(2)), run("prod", "p1", "1.2.0", ago(9))]);
    expect(next).toEqual(ago(-1));
  });

  it("leaves out drift announced or resolved by the plan it follows", () => {
    const open: DriftRecord = {
      id: "r1", serviceId: "svc", environmentId: "prod", kind: "inconsistent", targetId: null, state: "open",
      running: "1.1.0", expected: "1.2.0", openedAt: ago(0, 5), announcedAt: null, resolvedAt: null,
    };
    const plan: LifecyclePlan = { toOpen: [], toAnnounce: [{ id: "r1", announcedAt: NOW }], toResolve: [], toUpdate: [], events: [] };
    const args = { records: [open], policies: new Map([["svc", DEFAULT_POLICY]]), services: [], now: NOW };
    expect(nextClockChange({ ...args, plan })).toBeNull();
    expect(nextClockChange({ ...args, plan: { ...plan, toAnnounce: [] } })).toEqual(new Date(ago(0, 5).getTime() + 15 * 60_000));
  });
});
