import { describe, expect, it } from "vitest";
import { findWaitingRelease, listHeldReleases, nextClockChange, selectNewestOrNull, type ServiceInput } from "./drift";
import { policySchema, effectivePolicy } from "./policy";
import { releaseMaturesAt, splitByReleaseAge } from "./release-age";

const at = (s: string) => new Date(`${s}Z`);
const DAY = 86_400_000;
// First listed on Nov 1 (1.0.0, 1.1.0); 2.0.0 seen Nov 20, 3.0.0 seen Nov 27 10:00.
const firstSeen = new Map([
  ["1.0.0", at("2026-11-01T08:00:00")],
  ["1.1.0", at("2026-11-01T08:00:00")],
  ["2.0.0", at("2026-11-20T09:00:00")],
  ["3.0.0", at("2026-11-27T10:00:00")],
]);

describe("releaseMaturesAt", () => {
  it.each<[string, string, Map<string, Date> | undefined, Date | null]>([
    ["first seen + age", "3.0.0", undefined, at("2026-11-30T10:00:00")],
    ["a tag of the first listing has no known age: never waits", "1.1.0", undefined, null],
    ["publication counts, not when it was seen", "3.0.0", new Map([["3.0.0", at("2026-11-26T12:00:00")]]), at("2026-11-29T12:00:00")],
    ["published long before it was seen: from when it was seen", "2.0.0", new Map([["2.0.0", at("2026-01-01T00:00:00")]]), at("2026-11-20T09:00:00")],
    ["a first-listing tag with a publication date waits for it", "1.1.0", new Map([["1.1.0", at("2026-10-31T00:00:00")]]), at("2026-11-03T00:00:00")],
    ["an unknown tag never waits", "9.9.9", undefined, null],
  ])("%s", (_, tag, published, expected) => {
    expect(releaseMaturesAt(tag, { firstSeen, published }, 3 * DAY)).toEqual(expected);
  });
});

describe("splitByReleaseAge", () => {
  it.each<[string, number, string[], string[]]>([
    ["2026-11-27T11:00:00", 3 * DAY, ["1.0.0", "1.1.0", "2.0.0"], ["3.0.0"]],
    ["2026-11-30T09:59:59", 3 * DAY, ["1.0.0", "1.1.0", "2.0.0"], ["3.0.0"]],
    ["2026-11-30T10:00:00", 3 * DAY, ["1.0.0", "1.1.0", "2.0.0", "3.0.0"], []],
    ["2026-11-27T11:00:00", 10 * DAY, ["1.0.0", "1.1.0"], ["2.0.0", "3.0.0"]],
    ["2026-11-27T11:00:00", 30 * 60_000, ["1.0.0", "1.1.0", "2.0.0", "3.0.0"], []],
  ])("at %s with age %d ms", (now, age, mature, waiting) => {
    const split = splitByReleaseAge([...firstSeen.keys()], { firstSeen }, age, at(now));
    expect(split.mature).toEqual(mature);
    expect([...split.waiting.keys()]).toEqual(waiting);
  });
});

describe("policy min_release_age", () => {
  it.each<[unknown, boolean]>([["3d", true], ["72h", true], ["1h30m", true], ["3 days", false], ["", false], [3, false]])("%j valid: %s", (value, ok) => {
    const parsed = policySchema.safeParse({ min_release_age: value });
    expect(parsed.success).toBe(ok);
    if (!ok && typeof value === "string") expect(parsed.error?.issues[0]?.message).toBe("must be a duration such as 15m, 72h or 7d");
  });
});

describe("what alerts under a minimum release age", () => {
  const service = (policy: object): ServiceInput => ({
    id: "s", name: "web", team: null, application: null, policy: effectivePolicy(policy), upstream: { tags: [...firstSeen.keys()], firstSeen }, eol: new Map(),
  });

  it.each<[string, object, string, string | null, { version: string; waitsUntil: Date } | null]>([
    ["no minimum: the newest alerts", { track: "major" }, "2026-11-27T11:00:00", "3.0.0", null],
    ["3.0.0 waits; 2.0.0 alerts meanwhile", { track: "major", min_release_age: "3d" }, "2026-11-27T11:00:00", "2.0.0", { version: "3.0.0", waitsUntil: at("2026-11-30T10:00:00") }],
    ["once old enough, 3.0.0 alerts", { track: "major", min_release_age: "3d" }, "2026-11-30T10:00:00", "3.0.0", null],
    ["both wait: nothing alerts", { track: "major", min_release_age: "10d" }, "2026-11-27T11:00:00", null, { version: "3.0.0", waitsUntil: at("2026-12-07T10:00:00") }],
    ["pinned to 2: only 2.0.0 is considered", { track: "major", pin_major: 2, min_release_age: "10d" }, "2026-11-27T11:00:00", null, { version: "2.0.0", waitsUntil: at("2026-11-30T09:00:00") }],
  ])("%s", (_, policy, now, target, waiting) => {
    const s = service(policy);
    expect(selectNewestOrNull(s, "1.1.0", at(now))?.target ?? null).toBe(target);
    const held = findWaitingRelease(s, "1.1.0", at(now));
    expect(held === null ? null : { version: held.version, waitsUntil: held.waitsUntil }).toEqual(waiting);
  });
});

describe("every release held back (the API's waiting)", () => {
  const service = (policy: object, published?: Map<string, Date>): ServiceInput => ({
    id: "s", name: "web", team: null, application: null, policy: effectivePolicy(policy),
    upstream: { tags: [...firstSeen.keys()], firstSeen, ...(published ? { published } : {}) }, eol: new Map(),
  });

  it.each<[string, object, string, Map<string, Date> | undefined, { version: string; until: Date }[]]>([
    ["no minimum: nothing waits", { track: "major" }, "2026-11-27T11:00:00", undefined, []],
    ["3.0.0 waits", { track: "major", min_release_age: "3d" }, "2026-11-27T11:00:00", undefined, [{ version: "3.0.0", until: at("2026-11-30T10:00:00") }]],
    ["both wait, oldest first", { track: "major", min_release_age: "10d" }, "2026-11-27T11:00:00", undefined,
      [{ version: "2.0.0", until: at("2026-11-30T09:00:00") }, { version: "3.0.0", until: at("2026-12-07T10:00:00") }]],
    ["a patch jump waits too, whatever the track", { track: "major", pin_major: 2, min_release_age: "10d" }, "2026-11-27T11:00:00", undefined, [{ version: "2.0.0", until: at("2026-11-30T09:00:00") }, { version: "3.0.0", until: at("2026-12-07T10:00:00") }]],
    ["once old enough, none", { track: "major", min_release_age: "3d" }, "2026-12-01T00:00:00", undefined, []],
    // 1.1.0 came with the first listing: it waits only because the forge dates it.
    ["a first-listing tag dated by the forge waits", { track: "major", min_release_age: "3d" }, "2026-11-02T00:00:00", new Map([["1.1.0", at("2026-10-31T12:00:00")]]),
      [{ version: "1.1.0", until: at("2026-11-03T12:00:00") }, { version: "2.0.0", until: at("2026-11-23T09:00:00") }, { version: "3.0.0", until: at("2026-11-30T10:00:00") }]],
  ])("%s", (_, policy, now, published, held) => {
    // Running 1.0.0 on the first listing's day, else 1.1.0.
    expect(listHeldReleases(service(policy, published), published ? "1.0.0" : "1.1.0", at(now))).toEqual(held);
  });
});

describe("the clock under a minimum release age", () => {
  it("wakes drift evaluation when the next waiting release is old enough", () => {
    const policy = effectivePolicy({ min_release_age: "3d" });
    const services = [{ eol: new Map(), policy, upstream: { tags: [...firstSeen.keys()], firstSeen } }];
    const plan = { toOpen: [], toAnnounce: [], toResolve: [], toUpdate: [], events: [] };
    expect(nextClockChange({ records: [], plan, policies: new Map(), services, now: at("2026-11-27T11:00:00") })).toEqual(at("2026-11-30T10:00:00"));
    expect(nextClockChange({ records: [], plan, policies: new Map(), services, now: at("2026-11-30T10:00:00") })).toBeNull();
  });
});
