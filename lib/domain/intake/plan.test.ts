import { describe, expect, it } from "vitest";
import type { Workload } from "../agent-report";
import { planReport, reportChange, type ClosedRun, type OpenRun, type TargetSnapshot } from "./plan";

const T0 = "2026-08-01T10:00:00.000Z";
const T1 = "2026-08-01T11:00:00.000Z";
const OBSERVED = "2026-08-01T12:00:00.000Z";

function workload(image: string, since: string, container = "api"): Workload {
  return { service: "api", container, main: true, image, digest: null, platform_digest: null, platform: null, since };
}
function run(id: string, image: string, from: string, container = "api"): OpenRun {
  return { id, serviceName: "api", container, image, digest: null, from: Date.parse(from) };
}
function target(open: OpenRun[], over: Partial<TargetSnapshot> = {}): TargetSnapshot {
  return { environmentId: "env", reportEnvironmentId: "env", kind: "docker", lastObservedAt: new Date(T0), lastReportHash: "previous", open, ...over };
}

/** The plan's outcome as data: what opens (image at start), what closes (id at time), what reopens. */
function plan(t: TargetSnapshot, workloads: Workload[], lastClosed: ClosedRun[] = [], observedAt = OBSERVED) {
  const p = planReport(t, { target: { name: "host", kind: "docker" }, workloads }, new Date(observedAt), "this");
  if (typeof p === "string") return p;
  const c = reportChange(p, lastClosed);
  return {
    opened: c.fresh.map((w) => `${w.image}@${w.since}`),
    closed: Object.fromEntries([...c.closeAt].map(([id, at]) => [id, at.toISOString()])),
    reopened: c.reopen,
  };
}

describe("planReport", () => {
  it.each([
    {
      rule: "a new workload opens at its since",
      target: target([], { lastObservedAt: null, lastReportHash: null }),
      workloads: [workload("app:1", T0)],
      expected: { opened: [`app:1@${T0}`], closed: {}, reopened: [] },
    },
    {
      rule: "a changed image closes the previous run at the new since",
      target: target([run("1", "app:1", T0)]),
      workloads: [workload("app:2", T1)],
      expected: { opened: [`app:2@${T1}`], closed: { "1": T1 }, reopened: [] },
    },
    {
      rule: "a vanished workload closes at observed_at",
      target: target([run("1", "app:1", T0), run("2", "worker:1", T0, "worker")]),
      workloads: [workload("app:1", T0)],
      expected: { opened: [], closed: { "2": OBSERVED }, reopened: [] },
    },
    {
      rule: "a close never precedes the run's own start",
      target: target([run("1", "app:1", T1)]),
      workloads: [workload("app:2", T0)],
      expected: { opened: [`app:2@${T0}`], closed: { "1": T1 }, reopened: [] },
    },
    {
      rule: "the same workloads again change nothing",
      target: target([run("1", "app:1", T0), run("2", "worker:1", T0, "worker")]),
      workloads: [workload("app:1", T0), workload("worker:1", T0, "worker")],
      expected: { opened: [], closed: {}, reopened: [] },
    },
    {
      rule: "a report older than the last one is stale",
      target: target([run("1", "app:1", T0)], { lastObservedAt: new Date(OBSERVED) }),
      workloads: [workload("app:2", T1)],
      observedAt: T1,
      expected: "stale",
    },
    {
      rule: "a report the target already holds is read again",
      target: target([run("1", "app:1", T0)], { lastReportHash: "this" }),
      workloads: [workload("app:1", T0)],
      expected: "reread",
    },
    {
      rule: "a target that moved environment starts its history afresh there",
      target: target([run("1", "app:1", T0)], { reportEnvironmentId: "other", lastReportHash: "this" }),
      workloads: [workload("app:1", T0)],
      expected: { opened: [`app:1@${T0}`], closed: { "1": T0 }, reopened: [] },
    },
    {
      rule: "a workload back unchanged after a partial report resumes its closed run",
      target: target([], { lastObservedAt: new Date(T1) }),
      workloads: [workload("app:1", T0)],
      lastClosed: [{ id: "7", serviceName: "api", container: "api", image: "app:1", digest: null, from: new Date(T0) }],
      expected: { opened: [], closed: {}, reopened: ["7"] },
    },
  ])("$rule", ({ target: t, workloads, lastClosed, observedAt, expected }) => {
    expect(plan(t, workloads, lastClosed, observedAt)).toEqual(expected);
  });

  it("refuses a report of another kind under a target's name", () => {
    expect(() => planReport(target([], { kind: "kubernetes" }), { target: { name: "host", kind: "docker" }, workloads: [] }, new Date(OBSERVED), "this")).toThrow(/kubernetes target/);
  });

  it("asks for closed runs only for workloads that started before the last report and have no open row", () => {
    const p = planReport(target([run("1", "app:1", T0)], { lastObservedAt: new Date(T1) }), { target: { name: "host", kind: "docker" }, workloads: [workload("app:2", T0), workload("worker:1", T0, "worker"), workload("cron:1", OBSERVED, "cron")] }, new Date(OBSERVED), "this");
    expect(typeof p === "string" ? p : p.candidates.map((w) => w.container)).toEqual(["worker"]);
  });
});
