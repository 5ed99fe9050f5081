import { describe, expect, it } from "vitest";
import { planCalendarEvents, type CalendarInput } from "./calendar";
import type { EolCycleInfo } from "./drift";
import { effectivePolicy } from "./policy";

const WS = "00000000-0000-4000-8000-000000000001";
const envs = [{ id: "e1", name: "staging", position: 1 }, { id: "e2", name: "production", position: 2 }];
const nginx124: EolCycleInfo = { product: "nginx", cycle: "1.24", eolDate: new Date("2026-12-10T00:00:00Z") };
const pg15 = { product: "postgresql", cycle: "15", eolDate: new Date("2027-11-11T00:00:00Z") };

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
      { serviceId: "s1", environmentId: "e2", version: "1.24.0" },
      { serviceId: "s1", environmentId: "e1", version: "1.24.0" },
      { serviceId: "s1", environmentId: "e1", version: "1.27.3" },
      { serviceId: "s2", environmentId: "e2", version: "1.24.0" },
      { serviceId: "s3", environmentId: "e2", version: "15.4" },
      { serviceId: "s3", environmentId: "e1", version: null },
    ],
    pending: [],
    policies: new Map(),
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
    const events = planCalendarEvents(input({ current: [{ serviceId: "s3", environmentId: "e2", version: "15.4" }] }));
    expect(events.map((e) => e.summary)).toEqual(["postgresql 15 reaches end of life"]);
  });

  it.each<[string, Record<string, string> | undefined, string]>([
    ["env drift: 7 days by default", undefined, "2026-11-27"],
    ["the policy's delay", { env: "3d" }, "2026-11-23"],
    ["a delay past midnight UTC", { env: "13h" }, "2026-11-21"],
  ])("dates an open drift's announcement: %s", (_, delay, day) => {
    const policies = new Map([["s1", effectivePolicy(delay ? { drift_alert_after: delay } : {})]]);
    const pending = [{ id: "d1", serviceId: "s1", service: "web", environment: "production", kind: "env" as const, running: "1.24.0", expected: "1.27.3", openedAt: new Date("2026-11-20T12:00:00Z") }];
    const [event] = planCalendarEvents(input({ current: [], pending, policies }));
    expect(event).toMatchObject({ uid: `drift.d1.${WS}@driftwatch`, day, summary: "web in production: env drift is announced" });
    expect(event?.description).toContain("behind the previous environment (1.24.0 → 1.27.3) since 2026-11-20T12:00:00.000Z");
  });

  it("keeps UIDs stable when the inputs are listed in another order", () => {
    const a = planCalendarEvents(input());
    const b = planCalendarEvents(input({ current: [...input().current].reverse(), services: [...input().services].reverse() }));
    expect(b).toEqual(a);
  });
});
