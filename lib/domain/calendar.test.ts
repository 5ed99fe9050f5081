import { describe, expect, it } from "vitest";
import { planCalendarEvents, type CalendarInput } from "./calendar";
import type { AckRecord, CurrentRun, EolCycleInfo } from "./drift";
import { effectivePolicy } from "./policy";

const WS = "00000000-0000-4000-8000-000000000001";
const envs = [{ id: "e1", name: "staging", position: 1 }, { id: "e2", name: "production", position: 2 }];
const nginx124: EolCycleInfo = { product: "nginx", cycle: "1.24", eolDate: new Date("2026-12-10T00:00:00Z") };
const pg15 = { product: "postgresql", cycle: "15", eolDate: new Date("2027-11-11T00:00:00Z") };

const NOW = new Date("2026-11-21T00:00:00Z");

function run(serviceId: string, environmentId: string, version: string | null): CurrentRun {
  return { serviceId, environmentId, version, targetId: `t-${environmentId}`, targetName: environmentId, tag: version ?? "latest", digest: null, since: new Date("2026-11-01T00:00:00Z"), declared: false };
}

const drift = (state: "open" | "announced") => ({
  id: "d1", serviceId: "s1", environmentId: "e2", service: "web", environment: "production", kind: "env" as const, state, running: "1.24.0", expected: "1.27.3", openedAt: new Date("2026-11-20T12:00:00Z"),
});

function input(over: Partial<CalendarInput> = {}): CalendarInput {
  return {
    workspaceId: WS,
    environments: envs,
    services: [
      { id: "s1", name: "web", eol: new Map<string, EolCycleInfo | null>([["1.24.0", nginx124], ["1.27.3", { product: "nginx", cycle: "1.27", eolDate: null }]]) },
      { id: "s2", name: "edge", eol: new Map([["1.24.0", nginx124]]) },
      { id: "s3", name: "db", eol: new Map([["15.4", pg15]]) },
    ],
    current: [
      run("s1", "e2", "1.24.0"),
      run("s1", "e1", "1.24.0"),
      run("s1", "e1", "1.27.3"),
      run("s2", "e2", "1.24.0"),
      run("s3", "e2", "15.4"),
      run("s3", "e1", null),
    ],
    drifts: [],
    acks: [],
    policies: new Map(),
    now: NOW,
    ...over,
  };
}

describe("planCalendarEvents", () => {
  it("gives one event per running cycle with an end date, listing services × environments", () => {
    expect(planCalendarEvents(input())).toEqual([
      {
        uid: `eol.nginx.1.24.${WS}@driftwatch`,
        day: "2026-12-10",
        summary: "nginx 1.24 reaches end of life",
        description: "Runs in:\nedge · production (1.24.0)\nweb · staging (1.24.0)\nweb · production (1.24.0)",
      },
      { uid: `eol.postgresql.15.${WS}@driftwatch`, day: "2027-11-11", summary: "postgresql 15 reaches end of life", description: "Runs in:\ndb · production (15.4)" },
    ]);
  });

  it("leaves out cycles that no longer run", () => {
    const events = planCalendarEvents(input({ current: [run("s3", "e2", "15.4")] }));
    expect(events.map((e) => e.summary)).toEqual(["postgresql 15 reaches end of life"]);
  });

  it.each<[string, Record<string, string> | undefined, string]>([
    ["env drift: 7 days by default", undefined, "2026-11-27"],
    ["the policy's delay", { env: "3d" }, "2026-11-23"],
    ["a delay past midnight UTC", { env: "13h" }, "2026-11-21"],
  ])("dates an open drift's announcement: %s", (_, delay, day) => {
    const policies = new Map([["s1", effectivePolicy(delay ? { drift_alert_after: delay } : {})]]);
    const [event] = planCalendarEvents(input({ current: [], drifts: [drift("open")], policies }));
    expect(event).toMatchObject({ uid: `drift.d1.${WS}@driftwatch`, day, summary: "web in production: behind the previous environment, notifications start" });
    expect(event?.description).toContain("behind the previous environment (1.24.0 → 1.27.3) since 2026-11-20T12:00:00.000Z");
  });

  it.each<[string, Partial<AckRecord>, string | null]>([
    ["put off for 72h: the day it ends", { kind: "drift", expiresAt: new Date("2026-11-24T09:00:00Z") }, "2026-11-24"],
    ["put off until a version ships: no day to show", { kind: "release", untilVersion: "1.27.3" }, null],
    ["another environment's put-off does not count", { kind: "drift", environmentId: "e1", expiresAt: new Date("2026-11-24T09:00:00Z") }, null],
    ["an expired put-off does not count", { kind: "drift", expiresAt: new Date("2026-11-20T09:00:00Z") }, null],
  ])("an announced drift %s", (_, ack, day) => {
    const acks: AckRecord[] = [{ id: "a1", serviceId: "s1", environmentId: "e2", kind: "drift", untilVersion: null, expiresAt: null, liftedAt: null, createdAt: new Date("2026-11-20T13:00:00Z"), ...ack }];
    const events = planCalendarEvents(input({ current: [run("s1", "e2", "1.24.0")], drifts: [drift("announced")], acks, services: [] }));
    expect(events.map((e) => [e.uid, e.day, e.summary])).toEqual(day === null ? [] : [[`putoff.a1.d1.${WS}@driftwatch`, day, "web in production: put-off of behind the previous environment ends"]]);
  });

  it("gives an announced drift without a put-off no event", () => {
    expect(planCalendarEvents(input({ current: [], drifts: [drift("announced")] }))).toEqual([]);
  });

  it("keeps UIDs stable when the inputs are listed in another order", () => {
    const a = planCalendarEvents(input());
    const b = planCalendarEvents(input({ current: [...input().current].reverse(), services: [...input().services].reverse() }));
    expect(b).toEqual(a);
  });
});
