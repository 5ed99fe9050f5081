// Updates lines that follow the pipeline: the promotion named before the
// upstream jump, silenced reasons never the label, skip-this-version, and the
// grouped view of the page.
import { describe, expect, it } from "vitest";
import { ago, ENVS, makeService, NOW, run } from "@/lib/domain/drift/test-support";
import type { AckRecord, CurrentRun } from "@/lib/domain/drift";
import type { DriftKind } from "@/lib/domain/policy";
import { groupedUpdatesChecklist, groupUpdateLines, summariseRunning } from "./update-groups";
import { buildUpdates, countUpdatesByReason, updatesChecklist, type BuildUpdatesInput, type UpdateDrift, type UpdateReason } from "./updates";

const firstSeen = new Map<string, Date>();
const payments = makeService({ id: "pay", name: "payments", team: "money", upstream: { tags: ["4.2.0", "4.3.0", "4.3.1", "5.0.0"], firstSeen } });
const PIPELINE = ENVS.map((e) => e.name);

// dev and staging run 4.3.1, production still 4.2.0; upstream has 5.0.0, which no environment has run.
const CURRENT: CurrentRun[] = [
  run("dev", "d1", "4.3.1", ago(6), { serviceId: "pay" }),
  run("staging", "s1", "4.3.1", ago(4), { serviceId: "pay" }),
  run("prod", "p1", "4.2.0", ago(30), { serviceId: "pay" }),
];
const drift = (environmentId: string, kind: DriftKind, openedAt: Date, reason: UpdateReason, running: string, expected: string | null): UpdateDrift => ({
  serviceId: "pay", environmentId, kind, state: "announced", openedAt, running, expected, reason,
});
const DRIFTS: UpdateDrift[] = [
  drift("dev", "upstream", ago(10), "major", "4.3.1", "5.0.0"),
  drift("staging", "upstream", ago(10), "major", "4.3.1", "5.0.0"),
  drift("prod", "upstream", ago(10), "major", "4.2.0", "5.0.0"),
  drift("prod", "env", ago(4), "behind_previous_env", "4.2.0", "4.3.1"),
];
const ack = (over: Partial<AckRecord>): AckRecord => ({
  id: "a1", serviceId: "pay", environmentId: null, kind: "release", untilVersion: null, skipVersion: null, expiresAt: null, liftedAt: null, createdAt: ago(1), ...over,
});
const build = (over: Partial<BuildUpdatesInput> = {}) =>
  buildUpdates({ drifts: DRIFTS, services: [payments], environments: ENVS, current: CURRENT, acks: [], releaseNotes: () => null, now: NOW, ...over });

describe("production behind staging while upstream has a newer major", () => {
  const { items, acknowledged } = build();
  const production = items.find((l) => l.environment === "production");

  it("names the promotion first, then the upstream release", () => {
    expect(production).toMatchObject({
      running: "4.2.0", target_version: "5.0.0", reason: "major", reasons: ["major", "behind_previous_env"],
      promote: { from_environment: "staging", version: "4.3.1" }, open_since: ago(10), upstream_state: "ok", ack: null,
    });
    expect(updatesChecklist(production === undefined ? [] : [production])).toBe("- [ ] payments (production): 4.2.0 → 4.3.1 (from staging), then 5.0.0 · Major release, Behind the previous environment");
  });

  it("offers no promotion where the previous environment runs the same version", () => {
    expect(items.map((l) => [l.environment, l.promote])).toEqual([["production", production?.promote], ["dev", null], ["staging", null]]);
    expect(acknowledged).toEqual([]);
  });

  it("groups the three lines into one row with the environments as chips, in pipeline order", () => {
    const groups = groupUpdateLines(items, PIPELINE);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({
      service: "payments", running: "4.x", target_version: "5.0.0", reason: "major", reasons: ["major", "behind_previous_env"], open_since: ago(10),
    });
    expect(groups[0]?.environments.map((c) => [c.environment, c.running, c.promote?.version ?? null])).toEqual([
      ["dev", "4.3.1", null], ["staging", "4.3.1", null], ["production", "4.2.0", "4.3.1"],
    ]);
    // Each environment its own sub-item, so none is ticked off with another's move.
    expect(groupedUpdatesChecklist(groups)).toBe([
      "- [ ] payments 4.x → 5.0.0 · Major release, Behind the previous environment",
      "  - [ ] dev: 4.3.1 → 5.0.0",
      "  - [ ] staging: 4.3.1 → 5.0.0",
      "  - [ ] production: 4.2.0 → 4.3.1 (from staging), then 5.0.0",
    ].join("\n"));
    // One environment: one line, with its reasons.
    expect(groupedUpdatesChecklist([{ ...groups[0]!, environments: groups[0]!.environments.slice(2) }])).toBe(
      "- [ ] payments (production): 4.2.0 → 4.3.1 (from staging), then 5.0.0 · Major release, Behind the previous environment",
    );
  });

  it("tiles count every reason: three major lines, one behind its previous environment", () => {
    expect(countUpdatesByReason(items)).toMatchObject({ major: 3, behind_previous_env: 1 });
  });
});

describe("acknowledgements move the line", () => {
  const prodOf = (input: Partial<BuildUpdatesInput>) => {
    const { items, acknowledged } = build(input);
    return { item: items.find((l) => l.environment === "production") ?? null, acked: acknowledged.find((l) => l.environment === "production") ?? null };
  };

  it.each<[string, AckRecord[], Partial<BuildUpdatesInput>, { reasons: UpdateReason[] | null; ackedReasons: UpdateReason[] | null; ackId?: string }]>([
    ["release until 4.3.1 in production: the promotion is silenced, the major stays and labels the line",
      [ack({ untilVersion: "4.3.1", environmentId: "prod" })], {}, { reasons: ["major"], ackedReasons: null }],
    ["release until 5.0.0: every drift of the line silenced, the line is acknowledged",
      [ack({ untilVersion: "5.0.0" })], {}, { reasons: null, ackedReasons: ["major", "behind_previous_env"], ackId: "a1" }],
    ["release until 5.0.0 ends once 5.0.0 runs in production",
      [ack({ untilVersion: "5.0.0", environmentId: "prod" })],
      { current: CURRENT.map((r) => (r.environmentId === "prod" ? { ...r, version: "5.0.0", tag: "5.0.0" } : r)) },
      { reasons: ["major", "behind_previous_env"], ackedReasons: null }],
    ["skip 5.0.0: acknowledged while 5.0.0 is the newest release the policy alerts on",
      [ack({ skipVersion: "5.0.0" })], {}, { reasons: null, ackedReasons: ["major", "behind_previous_env"], ackId: "a1" }],
    ["skip 5.0.0, then 5.0.1 arrives: back in the list",
      [ack({ skipVersion: "5.0.0" })],
      {
        drifts: DRIFTS.map((d) => (d.kind === "upstream" ? { ...d, expected: "5.0.1" } : d)),
        services: [{ ...payments, upstream: { tags: [...(payments.upstream?.tags ?? []), "5.0.1"], firstSeen } }],
      },
      { reasons: ["major", "behind_previous_env"], ackedReasons: null }],
    ["drift ack for 72 hours: acknowledged",
      [ack({ kind: "drift", expiresAt: new Date(NOW.getTime() + 72 * 3_600_000) })], {}, { reasons: null, ackedReasons: ["major", "behind_previous_env"], ackId: "a1" }],
    ["drift ack expired: back in the list",
      [ack({ kind: "drift", expiresAt: ago(0, 1) })], {}, { reasons: ["major", "behind_previous_env"], ackedReasons: null }],
    ["drift ack in staging only: production untouched",
      [ack({ kind: "drift", environmentId: "staging", expiresAt: ago(-1) })], {}, { reasons: ["major", "behind_previous_env"], ackedReasons: null }],
  ])("%s", (_name, acks, over, expected) => {
    const { item, acked } = prodOf({ ...over, acks });
    expect(item?.reasons ?? null).toEqual(expected.reasons);
    expect(item?.reason ?? null).toEqual(expected.reasons?.[0] ?? null);
    expect(acked?.reasons ?? null).toEqual(expected.ackedReasons);
    if (expected.ackId !== undefined) expect(acked?.ack?.id).toBe(expected.ackId);
  });

  it("a silenced reason is never the label, and open_since follows the label", () => {
    // eol soon (most urgent) is silenced by a release acknowledgement up to 5.0.0; a 5.1.0 upstream move is not
    const drifts: UpdateDrift[] = [
      { ...drift("prod", "eol", ago(20), "eol_soon", "4.2.0", null) },
      { ...drift("prod", "upstream", ago(3), "major", "4.2.0", "5.1.0") },
    ];
    const { items } = build({ drifts, acks: [ack({ untilVersion: "5.0.0", environmentId: "prod" })] });
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ reason: "major", reasons: ["major"], open_since: ago(3), ack: null });
  });

  it("carries the upstream state it is given", () => {
    const { items } = build({ upstreamStates: new Map([["pay", "failed"]]) });
    expect(new Set(items.map((l) => l.upstream_state))).toEqual(new Set(["failed"]));
  });
});

describe("groupUpdateLines", () => {
  const other = makeService({ id: "web", name: "web", upstream: { tags: ["1.2.0", "1.3.0"], firstSeen } });
  const current = [...CURRENT, run("staging", "w1", "1.2.0", ago(9), { serviceId: "web" }), run("prod", "w2", "1.2.0", ago(9), { serviceId: "web" })];
  const drifts: UpdateDrift[] = [
    ...DRIFTS,
    { serviceId: "web", environmentId: "staging", kind: "upstream", state: "open", openedAt: ago(2), running: "1.2.0", expected: "1.3.0", reason: "minor" },
    { serviceId: "web", environmentId: "prod", kind: "upstream", state: "announced", openedAt: ago(2), running: "1.2.0", expected: "1.3.0", reason: "minor" },
  ];

  it("one row per service and target, most urgent row first", () => {
    const { items } = build({ drifts, services: [payments, other], current });
    const groups = groupUpdateLines(items, PIPELINE);
    expect(groups.map((g) => [g.service, g.running, g.target_version, g.environments.map((c) => c.environment)])).toEqual([
      ["payments", "4.x", "5.0.0", ["dev", "staging", "production"]],
      ["web", "1.2.0", "1.3.0", ["staging", "production"]],
    ]);
  });

  it.each<[string[], string]>([
    [["4.3.1"], "4.3.1"],
    [["4.3.1", "4.3.1"], "4.3.1"],
    [["4.3.1", "4.2.0"], "4.x"],
    [["v4.3.1", "v4.2.0"], "v4.x"],
    [["16.4-alpine", "16.6-alpine"], "16.x-alpine"],
    [["3.9.1", "4.2.0"], "3.9.1 and 4.2.0"],
    [["14.15", "16.6"], "14.15 and 16.6"],
    [["4.2.0", "3.9.1", "4.3.1"], "3.9.1, 4.2.0 and 4.3.1"],
    [[], ""],
  ])("summariseRunning(%j) → %s", (versions, expected) => {
    expect(summariseRunning(versions)).toBe(expected);
  });
});
