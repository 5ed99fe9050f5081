import { describe, expect, it } from "vitest";
import { DEFAULT_POLICY, type DriftKind, type EffectivePolicy } from "@/lib/domain/policy";
import { planLifecycle, type LifecyclePlan, type PlanInput } from "./lifecycle";
import type { RunningVersions } from "./runs";
import { ago, NOW } from "./test-support";
import type { AckRecord, Difference, DriftRecord } from "./types";

const diff = (kind: DriftKind, since: Date, over: Partial<Difference> = {}): Difference => ({
  serviceId: "svc", environmentId: "prod", kind, targetId: null, running: "1.1.0", expected: "1.2.0", since, ...over,
});

const record = (kind: DriftKind, state: DriftRecord["state"], openedAt: Date, over: Partial<DriftRecord> = {}): DriftRecord => ({
  id: `r-${kind}`, serviceId: "svc", environmentId: "prod", kind, targetId: null, state,
  running: "1.1.0", expected: "1.2.0", openedAt, announcedAt: state === "announced" ? openedAt : null, resolvedAt: null, ...over,
});

const ack = (over: Partial<AckRecord> = {}): AckRecord => ({
  id: "a1", serviceId: "svc", environmentId: null, kind: "drift", untilVersion: null, expiresAt: null, liftedAt: null,
  createdAt: ago(1), ...over,
});

const noVersions: RunningVersions = new Map();
const policies = (policy: Partial<EffectivePolicy> = {}) => new Map([["svc", { ...DEFAULT_POLICY, ...policy }]]);

function plan(over: Partial<PlanInput>): LifecyclePlan {
  return planLifecycle({ records: [], differences: [], policies: policies(), acks: [], currentVersions: noVersions, now: NOW, ...over });
}

const empty: LifecyclePlan = { toOpen: [], toAnnounce: [], toResolve: [], toUpdate: [], events: [] };

describe("a new difference", () => {
  it.each<[string, Difference, Partial<EffectivePolicy>, boolean]>([
    ["upstream: announced at once", diff("upstream", ago(0)), {}, true],
    ["eol: announced at once", diff("eol", ago(3)), {}, true],
    ["env that began 8 days ago: announced in the evaluation that opens it", diff("env", ago(8)), {}, true],
    ["env that began 6 days ago: open only", diff("env", ago(6)), {}, false],
    ["env at exactly 7 days: announced", diff("env", ago(7)), {}, true],
    ["inconsistent 14 minutes old: open only", diff("inconsistent", ago(0, 14)), {}, false],
    ["inconsistent 15 minutes old: announced", diff("inconsistent", ago(0, 15)), {}, true],
    ["declared 29 minutes old: open only", diff("declared", ago(0, 29)), {}, false],
    ["declared 31 minutes old: announced", diff("declared", ago(0, 31)), {}, true],
    ["env with drift_alert_after.env = 1d, 2 days old: announced", diff("env", ago(2)), { drift_alert_after: { env: "1d" } }, true],
    ["upstream with drift_alert_after.upstream = 72h, 1 day old: open only", diff("upstream", ago(1)), { drift_alert_after: { upstream: "72h" } }, false],
    ["an override of another kind leaves the default", diff("inconsistent", ago(0, 20)), { drift_alert_after: { env: "30d" } }, true],
  ])("%s", (_name, d, policy, isAnnounced) => {
    const result = plan({ differences: [d], policies: policies(policy) });
    const announcedAt = isAnnounced ? NOW : null;
    expect(result).toEqual({
      ...empty,
      toOpen: [{ ...d, announcedAt }],
      events: isAnnounced
        ? [{
            type: "drift_detected", driftKey: `svc:prod:${d.kind}`, silenced: false, serviceId: "svc", environmentId: "prod",
            kind: d.kind, targetId: null, running: "1.1.0", expected: "1.2.0", openedAt: d.since, at: NOW,
          }]
        : [],
    });
  });
});

describe("an existing record", () => {
  it.each<[string, DriftRecord, Difference | null, Partial<LifecyclePlan>]>([
    [
      "open inconsistent after 20 minutes: announced",
      record("inconsistent", "open", ago(0, 20)), diff("inconsistent", ago(0, 20)),
      {
        toAnnounce: [{ id: "r-inconsistent", announcedAt: NOW }],
        events: [{
          type: "drift_detected", driftKey: "r-inconsistent", silenced: false, serviceId: "svc", environmentId: "prod",
          kind: "inconsistent", targetId: null, running: "1.1.0", expected: "1.2.0", openedAt: ago(0, 20), at: NOW,
        }],
      },
    ],
    ["open env after 3 days: nothing yet", record("env", "open", ago(3)), diff("env", ago(3)), {}],
    ["announced and still there: nothing", record("upstream", "announced", ago(3)), diff("upstream", ago(3)), {}],
    [
      "open record disappears before its announcement: resolved without an event",
      record("inconsistent", "open", ago(0, 10)), null,
      { toResolve: [{ id: "r-inconsistent", resolvedAt: NOW }] },
    ],
    [
      "announced record disappears: resolved with drift_resolved",
      record("env", "announced", ago(9)), null,
      {
        toResolve: [{ id: "r-env", resolvedAt: NOW }],
        events: [{
          type: "drift_resolved", driftKey: "r-env", silenced: false, serviceId: "svc", environmentId: "prod",
          kind: "env", targetId: null, running: "1.1.0", expected: "1.2.0", openedAt: ago(9), at: NOW,
        }],
      },
    ],
    [
      "the versions change while the drift lasts: updated, opened_at kept",
      record("upstream", "announced", ago(3)), diff("upstream", ago(1), { expected: "1.3.0" }),
      { toUpdate: [{ id: "r-upstream", running: "1.1.0", expected: "1.3.0", targetId: null, openedAt: ago(3) }] },
    ],
    [
      "an earlier start is learned (the forge's publication date): opened_at moves back",
      record("upstream", "announced", ago(3)), diff("upstream", ago(20)),
      { toUpdate: [{ id: "r-upstream", running: "1.1.0", expected: "1.2.0", targetId: null, openedAt: ago(20) }] },
    ],
    [
      "an end of life passes: the drift dates from the end-of-life day",
      record("eol", "announced", ago(60)), diff("eol", ago(2)),
      { toUpdate: [{ id: "r-eol", running: "1.1.0", expected: "1.2.0", targetId: null, openedAt: ago(2) }] },
    ],
    [
      "an end of life without a day (dated now) keeps the first date",
      record("eol", "announced", ago(1)), diff("eol", NOW),
      {},
    ],
    [
      "the odd target changes",
      record("inconsistent", "announced", ago(3), { targetId: "p1" }), diff("inconsistent", ago(3), { targetId: "p2" }),
      { toUpdate: [{ id: "r-inconsistent", running: "1.1.0", expected: "1.2.0", targetId: "p2", openedAt: ago(3) }] },
    ],
    [
      "a resolved record is history: the same difference again opens a new one",
      record("eol", "resolved", ago(50)), diff("eol", ago(0, 30), { expected: null }),
      {
        toOpen: [{ ...diff("eol", ago(0, 30), { expected: null }), announcedAt: NOW }],
        events: [{
          type: "drift_detected", driftKey: "svc:prod:eol", silenced: false, serviceId: "svc", environmentId: "prod",
          kind: "eol", targetId: null, running: "1.1.0", expected: null, openedAt: ago(0, 30), at: NOW,
        }],
      },
    ],
  ])("%s", (_name, rec, d, expected) => {
    expect(plan({ records: [rec], differences: d === null ? [] : [d] })).toEqual({ ...empty, ...expected });
  });
});

describe("acknowledgements silence events", () => {
  const versions = (v: string[]): RunningVersions => new Map([["svc", new Map([["prod", v]])]]);
  it.each<[string, AckRecord, DriftKind, RunningVersions, boolean]>([
    ["drift ack without an end", ack(), "env", noVersions, true],
    ["drift ack still running for an hour", ack({ expiresAt: ago(0, -60) }), "declared", noVersions, true],
    ["drift ack that expired by time", ack({ expiresAt: ago(0, 1) }), "env", noVersions, false],
    ["release ack silences upstream", ack({ kind: "release", untilVersion: "1.2.0" }), "upstream", versions(["1.1.0"]), true],
    ["release ack silences eol", ack({ kind: "release", untilVersion: "1.2.0" }), "eol", versions(["1.1.0"]), true],
    ["release ack silences env (its move is the previous environment's version)", ack({ kind: "release" }), "env", noVersions, true],
    ["release ack lifted by the version shipping", ack({ kind: "release", untilVersion: "1.2.0" }), "upstream", versions(["1.1.0", "1.2.0"]), false],
    ["release ack lifted by a newer version shipping", ack({ kind: "release", untilVersion: "1.2.0" }), "upstream", versions(["1.3.1"]), false],
    ["ack already marked lifted", ack({ liftedAt: ago(1) }), "env", noVersions, false],
    ["ack in the drift's environment", ack({ environmentId: "prod" }), "env", noVersions, true],
    ["ack in another environment", ack({ environmentId: "staging" }), "env", noVersions, false],
    ["ack of another service", ack({ serviceId: "other" }), "env", noVersions, false],
  ])("%s", (_name, a, kind, currentVersions, silenced) => {
    const result = plan({ differences: [diff(kind, ago(10))], acks: [a], currentVersions });
    expect(result.events.map((e) => e.silenced)).toEqual([silenced]);
  });

  it("a resolution is silenced too while the acknowledgement holds", () => {
    const result = plan({ records: [record("env", "announced", ago(9))], acks: [ack()] });
    expect(result.events.map((e) => [e.type, e.silenced])).toEqual([["drift_resolved", true]]);
  });
});

/** Applies a plan the way the caller's transaction does; new records get ids from their key. */
function applyPlan(records: DriftRecord[], p: LifecyclePlan): DriftRecord[] {
  const byId = new Map(records.map((r) => [r.id, { ...r }] as const));
  for (const o of p.toOpen) {
    const id = `${o.serviceId}:${o.environmentId}:${o.kind}`;
    byId.set(id, {
      id, serviceId: o.serviceId, environmentId: o.environmentId, kind: o.kind, targetId: o.targetId,
      state: o.announcedAt === null ? "open" : "announced", running: o.running, expected: o.expected,
      openedAt: o.since, announcedAt: o.announcedAt, resolvedAt: null,
    });
  }
  for (const a of p.toAnnounce) Object.assign(byId.get(a.id) ?? {}, { state: "announced", announcedAt: a.announcedAt });
  for (const u of p.toUpdate) Object.assign(byId.get(u.id) ?? {}, { running: u.running, expected: u.expected, targetId: u.targetId });
  for (const r of p.toResolve) Object.assign(byId.get(r.id) ?? {}, { state: "resolved", resolvedAt: r.resolvedAt });
  return [...byId.values()];
}

describe("idempotence and sequences", () => {
  it("planning again with the result applied yields nothing", () => {
    const records = [record("env", "open", ago(8)), record("declared", "announced", ago(2)), record("inconsistent", "open", ago(0, 1))];
    const differences = [diff("env", ago(8), { running: "1.0.0" }), diff("upstream", ago(1)), diff("eol", ago(0)), diff("inconsistent", ago(0, 1))];
    const first = plan({ records, differences });
    expect(first.toOpen.map((o) => o.kind)).toEqual(["upstream", "eol"]);
    expect(first.toAnnounce).toEqual([{ id: "r-env", announcedAt: NOW }]);
    expect(first.toResolve).toEqual([{ id: "r-declared", resolvedAt: NOW }]);
    expect(first.events.map((e) => [e.type, e.driftKey])).toEqual([
      ["drift_detected", "r-env"], ["drift_detected", "svc:prod:upstream"], ["drift_detected", "svc:prod:eol"], ["drift_resolved", "r-declared"],
    ]);
    expect(plan({ records: applyPlan(records, first), differences })).toEqual(empty);
  });

  it("an inconsistency that heals after 10 minutes is never announced", () => {
    const appeared = new Date(NOW.getTime() - 10 * 60_000);
    const d = diff("inconsistent", appeared);
    const atStart = planLifecycle({ records: [], differences: [d], policies: policies(), acks: [], currentVersions: noVersions, now: appeared });
    expect(atStart.events).toEqual([]);
    const healed = plan({ records: applyPlan([], atStart), differences: [] });
    expect(healed).toEqual({ ...empty, toResolve: [{ id: "svc:prod:inconsistent", resolvedAt: NOW }] });
  });

  it("a duplicate live record is resolved, the first one kept", () => {
    const records = [record("env", "open", ago(1)), record("env", "open", ago(1), { id: "dup" })];
    expect(plan({ records, differences: [diff("env", ago(1))] })).toEqual({ ...empty, toResolve: [{ id: "dup", resolvedAt: NOW }] });
  });
});
