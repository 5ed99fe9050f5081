import { describe, expect, it } from "vitest";
import { ago, ENVS, makeService, NOW, run } from "@/lib/domain/drift/test-support";
import type { AckRecord, CurrentRun } from "@/lib/domain/drift";
import type { DriftKind } from "@/lib/domain/policy";
import { buildUpdates, countUpdatesByReason, describeLineTargets, updatesChecklist, type UpdateDrift, type UpdateLine, type UpdateReason } from "./updates";

const tags = (...list: string[]) => ({ tags: list, firstSeen: new Map<string, Date>() });
const SERVICES = [
  makeService({ id: "web", name: "web", team: "shop", application: "storefront", policy: { track: "minor", pin_major: 1 }, upstream: tags("1.1.0", "1.1.1", "1.2.0", "1.2.1", "2.0.0") }),
  makeService({ id: "api", name: "api", team: "platform", upstream: tags("3.0.0", "3.0.1", "3.0.2") }),
  makeService({ id: "db", name: "db", team: "data", upstream: tags("14.9", "15.4", "16.1") }),
  makeService({ id: "cache", name: "cache", team: "platform", upstream: tags("7.1.0", "7.2.0") }),
  makeService({ id: "worker", name: "worker", team: "shop", upstream: null }),
];

const on = (serviceId: string, env: string, target: string, version: string | null) => run(env, target, version, ago(40), { serviceId });
const CURRENT: CurrentRun[] = [
  on("web", "staging", "s1", "1.1.1"), on("web", "prod", "p1", "1.1.0"), on("web", "prod", "p2", "1.1.1"),
  on("api", "dev", "d1", "3.0.1"), on("api", "staging", "s1", "3.0.0"), on("api", "prod", "p1", "3.0.0"),
  on("db", "dev", "d1", "15.4"), on("db", "staging", "s1", "15.4"), on("db", "prod", "p1", "14.9"),
  on("cache", "staging", "s1", "7.1.0"),
  on("worker", "staging", "s1", "1.0.0"), on("worker", "prod", "p1", "0.9.0"),
];

const drift = (serviceId: string, environmentId: string, kind: DriftKind, openedAt: Date, reason?: UpdateReason, over: Partial<UpdateDrift> = {}): UpdateDrift => ({
  serviceId, environmentId, kind, state: "announced", openedAt, running: null, expected: null, ...(reason === undefined ? {} : { reason }), ...over,
});

const DRIFTS: UpdateDrift[] = [
  drift("web", "prod", "upstream", ago(10), "minor"),
  drift("web", "prod", "env", ago(3), "behind_previous_env"), // same line as above: minor wins, open since 10d
  drift("web", "staging", "upstream", ago(12), "minor"),
  drift("web", "dev", "upstream", ago(40), "minor", { state: "resolved" }), // resolved: no line
  drift("api", "prod", "upstream", ago(30), "patch"),
  drift("api", "prod", "eol", ago(20), "eol_soon"), // eol_soon beats patch; open since its own 20d, not the older 30d
  drift("api", "staging", "env", ago(5), "behind_previous_env"),
  drift("api", "dev", "upstream", ago(1), "patch"), // put off: see ACKS
  drift("db", "dev", "upstream", ago(2), "major"),
  drift("db", "prod", "eol", ago(1), "eol_passed"),
  drift("db", "staging", "inconsistent", ago(9)), // not an update kind
  drift("db", "staging", "declared", ago(9)),
  drift("cache", "staging", "upstream", ago(20), "minor"),
  drift("worker", "prod", "env", ago(6), undefined, { running: "0.9.0", expected: "1.0.0" }), // reason inferred
];

const ACKS: AckRecord[] = [
  { id: "put-off", serviceId: "api", environmentId: "dev", kind: "release", untilVersion: "3.0.2", expiresAt: null, liftedAt: null, createdAt: ago(1) },
  { id: "expired", serviceId: "web", environmentId: "prod", kind: "drift", untilVersion: null, expiresAt: ago(1), liftedAt: null, createdAt: ago(9) },
  // a release ack quiets env drift too (its move is to the previous environment's version): worker is acknowledged
  { id: "release-only", serviceId: "worker", environmentId: null, kind: "release", untilVersion: null, expiresAt: null, liftedAt: null, createdAt: ago(2) },
];

const releaseNotes = (serviceId: string, version: string) => (serviceId === "db" ? null : `https://notes.example/${serviceId}/${version}`);

const line = (over: Partial<UpdateLine> & Pick<UpdateLine, "service" | "environment" | "running" | "target_version" | "reason" | "open_since">): UpdateLine => {
  const service = SERVICES.find((s) => s.name === over.service);
  const env = ENVS.find((e) => e.name === over.environment);
  return {
    application: service?.application ?? null,
    team: service?.team ?? null,
    production: env?.production ?? false,
    release_notes_url: over.target_version === null || over.service === "db" ? null : `https://notes.example/${over.service}/${over.target_version}`,
    reasons: [over.reason],
    promote: null,
    // Which targets move is checked on its own below.
    targets: expect.any(Array) as UpdateLine["targets"],
    upstream_state: service?.upstream === null ? "unchecked" : "ok",
    ack: null,
    waiting: [],
    ...over,
  };
};

const EXPECTED_ITEMS: UpdateLine[] = [
  // eol_passed
  line({ service: "db", environment: "production", running: "14.9", target_version: "16.1", reason: "eol_passed", open_since: ago(1), promote: { from_environment: "staging", version: "15.4" } }),
  // eol_soon, then the patch also open; open since the eol drift opened
  line({ service: "api", environment: "production", running: "3.0.0", target_version: "3.0.2", reason: "eol_soon", reasons: ["eol_soon", "patch"], open_since: ago(20) }),
  // major
  line({ service: "db", environment: "dev", running: "15.4", target_version: "16.1", reason: "major", open_since: ago(2) }),
  // minor: production first (web 10d), then longest open (cache 20d before web staging 12d);
  // web's target stays on major 1 (pin_major) and is the oldest running there, 1.1.0 → 1.2.1
  line({
    service: "web", environment: "production", running: "1.1.0", target_version: "1.2.1", reason: "minor", reasons: ["minor", "behind_previous_env"], open_since: ago(10),
    promote: { from_environment: "staging", version: "1.1.1" },
  }),
  line({ service: "cache", environment: "staging", running: "7.1.0", target_version: "7.2.0", reason: "minor", open_since: ago(20) }),
  line({ service: "web", environment: "staging", running: "1.1.1", target_version: "1.2.1", reason: "minor", open_since: ago(12) }),
  // behind_previous_env
  line({ service: "api", environment: "staging", running: "3.0.0", target_version: "3.0.2", reason: "behind_previous_env", open_since: ago(5), promote: { from_environment: "dev", version: "3.0.1" } }),
];

describe("buildUpdates", () => {
  const result = buildUpdates({ drifts: DRIFTS, services: SERVICES, environments: ENVS, current: CURRENT, acks: ACKS, releaseNotes, now: NOW });

  it("one line per service and environment, most urgent first", () => {
    expect(result.items).toEqual(EXPECTED_ITEMS);
  });

  it("put-off lines appear apart with their acknowledgement", () => {
    expect(result.acknowledged).toEqual([
      // worker has no upstream data: the previous environment's version is the target
      line({
        service: "worker", environment: "production", running: "0.9.0", target_version: "1.0.0", reason: "behind_previous_env", open_since: ago(6),
        promote: { from_environment: "staging", version: "1.0.0" },
        ack: { id: "release-only", kind: "release", until_version: null, skip_version: null, expires_at: null },
      }),
      line({
        service: "api", environment: "dev", running: "3.0.1", target_version: "3.0.2", reason: "patch", open_since: ago(1),
        ack: { id: "put-off", kind: "release", until_version: "3.0.2", skip_version: null, expires_at: null },
      }),
    ]);
  });

  it("a put-off line returns once its version ships", () => {
    const shipped = CURRENT.map((r) => (r.serviceId === "api" && r.environmentId === "dev" ? { ...r, version: "3.0.2", tag: "3.0.2" } : r));
    const again = buildUpdates({ drifts: DRIFTS, services: SERVICES, environments: ENVS, current: shipped, acks: ACKS, releaseNotes, now: NOW });
    expect(again.acknowledged.map((l) => l.service)).toEqual(["worker"]);
  });

  it.each<[string, UpdateDrift, UpdateReason]>([
    ["upstream without a reason: the jump", drift("cache", "staging", "upstream", ago(1), undefined, { running: "7.1.0", expected: "7.2.0" }), "minor"],
    ["eol without a reason, date passed", drift("db", "prod", "eol", ago(1)), "eol_passed"],
    ["env without a reason", drift("api", "staging", "env", ago(1)), "behind_previous_env"],
  ])("infers %s", (_name, d, reason) => {
    const services = SERVICES.map((s) => (s.id === "db" ? { ...s, eol: new Map([["14.9", { product: "postgresql", cycle: "14", eolDate: ago(3) }]]) } : s));
    const { items } = buildUpdates({ drifts: [d], services, environments: ENVS, current: CURRENT, acks: [], releaseNotes, now: NOW });
    expect(items.map((l) => l.reason)).toEqual([reason]);
  });
});

describe("updatesChecklist and tiles", () => {
  const built = buildUpdates({ drifts: DRIFTS, services: SERVICES, environments: ENVS, current: CURRENT, acks: ACKS, releaseNotes, now: NOW }).items;

  it("renders markdown checkboxes with the reasons by their one name", () => {
    expect(updatesChecklist(built.slice(0, 3))).toEqual(
      [
        "- [ ] db (production): 14.9 → 15.4 (from staging), then 16.1 · End of life passed",
        "- [ ] api (production): 3.0.0 → 3.0.2 · End of life soon, Patch release",
        "- [ ] db (dev): 15.4 → 16.1 · Major release",
      ].join("\n"),
    );
  });

  it("a line without a target shows a question mark", () => {
    expect(updatesChecklist([{ ...built[2] as UpdateLine, target_version: null }])).toEqual("- [ ] db (dev): 15.4 → ? · Major release");
    expect(updatesChecklist([{ ...built[0] as UpdateLine, target_version: null }])).toEqual("- [ ] db (production): 14.9 → 15.4 (from staging) · End of life passed");
  });

  it("names the target that must move where an environment's targets run different versions", () => {
    const web = built.find((l) => l.service === "web" && l.environment === "production");
    // p1 runs 1.1.0, p2 already runs staging's 1.1.1
    expect(web?.targets).toEqual([{ name: "p1", version: "1.1.0", moves: true }, { name: "p2", version: "1.1.1", moves: false }]);
    expect(describeLineTargets(web ?? {})).toBe("move p1 (runs 1.1.0); p2 runs 1.1.1 already");
    expect(updatesChecklist(web ? [web] : [])).toBe("- [ ] web (production): 1.1.0 → 1.1.1 (from staging), then 1.2.1 · Minor release, Behind the previous environment · move p1 (runs 1.1.0); p2 runs 1.1.1 already");
  });

  it.each<[string, UpdateLine["targets"], string | null]>([
    ["one target: the environment says it all", [{ name: "p1", version: "1.0.0", moves: true }], null],
    ["two, both move", [{ name: "p1", version: "1.0.0", moves: true }, { name: "p2", version: "1.0.0", moves: true }], "on both targets"],
    ["three, all move", ["a", "b", "c"].map((name) => ({ name, version: "1.0.0", moves: true })), "on all 3 targets"],
  ])("describeLineTargets: %s", (_name, targets, words) => {
    expect(describeLineTargets({ targets })).toBe(words);
  });

  it("counts every reason of every line, every tile present", () => {
    // web production counts for minor and behind_previous_env, api production for eol_soon and patch
    expect(countUpdatesByReason(EXPECTED_ITEMS)).toEqual({ eol_passed: 1, eol_soon: 1, major: 1, minor: 3, behind_previous_env: 2, patch: 1 });
  });

  it("counts a line without reasons (an older shape) by its reason", () => {
    expect(countUpdatesByReason([{ reason: "major" }, { reason: "patch", reasons: [] }])).toEqual({ eol_passed: 0, eol_soon: 0, major: 1, minor: 0, behind_previous_env: 0, patch: 1 });
  });
});
