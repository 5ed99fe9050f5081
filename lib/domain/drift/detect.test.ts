import { describe, expect, it } from "vitest";
import type { DriftKind } from "@/lib/domain/policy";
import { detectDifferences } from "./detect";
import { ago, ENVS, hist, makeService, NOW, openRows, run } from "./test-support";
import type { CurrentRun, Difference, HistoryRun, ServiceInput } from "./types";

type Case = {
  name: string;
  service?: ServiceInput;
  current?: CurrentRun[];
  /** When given, `current` defaults to its open rows. */
  history?: HistoryRun[];
  expected: Omit<Difference, "serviceId">[];
};

function detectKind(kind: DriftKind, c: Case): Omit<Difference, "serviceId">[] {
  const current = c.current ?? openRows(c.history ?? []);
  const found = detectDifferences({
    environments: ENVS,
    services: [c.service ?? makeService()],
    current,
    history: c.history ?? [],
    now: NOW,
  });
  return found.filter((d) => d.kind === kind).map(({ serviceId: _s, ...rest }) => rest);
}

const envDrift = (environmentId: string, running: string, expected: string, since: Date): Omit<Difference, "serviceId"> => ({
  environmentId, kind: "env", targetId: null, running, expected, since, reason: "behind_previous_env",
});

describe("env drift", () => {
  it.each<Case>([
    {
      name: "production behind staging: since staging got the newer version",
      current: [run("staging", "s1", "1.2.0", ago(10)), run("prod", "p1", "1.1.0", ago(30))],
      expected: [envDrift("prod", "1.1.0", "1.2.0", ago(10))],
    },
    {
      name: "same version everywhere",
      current: [run("dev", "d1", "1.2.0", ago(10)), run("staging", "s1", "1.2.0", ago(9)), run("prod", "p1", "1.2.0", ago(8))],
      expected: [],
    },
    {
      name: "a later environment ahead (hotfix in production) is not env drift",
      current: [run("staging", "s1", "1.1.0", ago(10)), run("prod", "p1", "1.1.1", ago(2))],
      expected: [],
    },
    {
      name: "versions not comparable like with like",
      current: [run("staging", "s1", "1.2.0-alpine", ago(10)), run("prod", "p1", "1.1.0", ago(30))],
      expected: [],
    },
    {
      name: "an unresolved moving tag in the earlier environment never drifts",
      current: [run("staging", "s1", null, ago(10), { tag: "latest" }), run("prod", "p1", "1.1.0", ago(30))],
      expected: [],
    },
    {
      name: "an unresolved moving tag in the later environment never drifts",
      current: [run("staging", "s1", "1.2.0", ago(10)), run("prod", "p1", null, ago(30), { tag: "1" })],
      expected: [],
    },
    {
      name: "production compares with dev when staging does not run the service",
      current: [run("dev", "d1", "2.0.0", ago(4)), run("prod", "p1", "1.0.0", ago(30))],
      expected: [envDrift("prod", "1.0.0", "2.0.0", ago(4))],
    },
    {
      name: "the oldest version of each environment stands for it",
      current: [
        run("staging", "s1", "1.2.0", ago(10)), run("staging", "s2", "1.3.0", ago(1)),
        run("prod", "p1", "1.2.0", ago(5)), run("prod", "p2", "1.1.0", ago(40)),
      ],
      // staging's oldest 1.2.0 > production's oldest 1.1.0; 1.2.0 reached staging 10 days ago
      expected: [envDrift("prod", "1.1.0", "1.2.0", ago(10))],
    },
    {
      name: "staging moving on from one newer version to another does not move the start",
      history: [
        hist("staging", "s1", "1.1.0", ago(40), ago(20)),
        hist("staging", "s1", "1.2.0", ago(20), ago(5)),
        hist("staging", "s1", "1.3.0", ago(5), null),
        hist("prod", "p1", "1.1.0", ago(40), null),
      ],
      // staging first ran something newer than 1.1.0 twenty days ago and never went back
      expected: [envDrift("prod", "1.1.0", "1.3.0", ago(20))],
    },
    {
      name: "a rollback in staging restarts the clock",
      history: [
        hist("staging", "s1", "1.2.0", ago(20), ago(10)),
        hist("staging", "s1", "1.1.0", ago(10), ago(3)),
        hist("staging", "s1", "1.2.0", ago(3), null),
        hist("prod", "p1", "1.1.0", ago(40), null),
      ],
      // staging ran 1.1.0 (= production's) until 3 days ago
      expected: [envDrift("prod", "1.1.0", "1.2.0", ago(3))],
    },
    {
      name: "production started its current version after staging moved ahead",
      history: [
        hist("staging", "s1", "1.2.0", ago(20), null),
        hist("prod", "p1", "1.0.0", ago(40), ago(5)),
        hist("prod", "p1", "1.1.0", ago(5), null),
      ],
      // max(20 days ago, 5 days ago)
      expected: [envDrift("prod", "1.1.0", "1.2.0", ago(5))],
    },
    {
      name: "an environment with only Compose files counts with its declared versions",
      current: [run("staging", "git", "1.2.0", ago(6), { declared: true }), run("prod", "p1", "1.1.0", ago(30))],
      expected: [envDrift("prod", "1.1.0", "1.2.0", ago(6))],
    },
    {
      name: "declared rows do not count where runtime rows exist",
      current: [
        run("staging", "git", "1.3.0", ago(6), { declared: true }), run("staging", "s1", "1.1.0", ago(30)),
        run("prod", "p1", "1.1.0", ago(30)),
      ],
      expected: [],
    },
  ])("$name", (c) => {
    expect(detectKind("env", c)).toEqual(c.expected);
  });
});

const upstream = (tags: string[], firstSeen: Record<string, Date> = {}) => ({ tags, firstSeen: new Map(Object.entries(firstSeen)) });

describe("upstream drift", () => {
  const tags = ["1.1.0", "1.1.1", "1.2.0", "2.0.0", "latest", "2.1.0-rc.1"];
  const seen = { "1.1.1": ago(8), "1.2.0": ago(4), "2.0.0": ago(2) };
  it.each<Case>([
    {
      name: "track patch: the newest release alerts; the drift began with the first alerting release",
      service: makeService({ upstream: upstream(tags, seen) }),
      current: [run("prod", "p1", "1.1.0", ago(30))],
      // 1.1.1 (8 days ago) was already a patch behind
      expected: [{ environmentId: "prod", kind: "upstream", targetId: null, running: "1.1.0", expected: "2.0.0", since: ago(8), reason: "major" }],
    },
    {
      name: "track minor: patches do not count; since 1.2.0 came out",
      service: makeService({ upstream: upstream(tags, seen), policy: { track: "minor" } }),
      current: [run("prod", "p1", "1.1.0", ago(30))],
      expected: [{ environmentId: "prod", kind: "upstream", targetId: null, running: "1.1.0", expected: "2.0.0", since: ago(4), reason: "major" }],
    },
    {
      name: "pin_major 1 stays on major 1",
      service: makeService({ upstream: upstream(tags, seen), policy: { track: "minor", pin_major: 1 } }),
      current: [run("prod", "p1", "1.1.0", ago(30))],
      expected: [{ environmentId: "prod", kind: "upstream", targetId: null, running: "1.1.0", expected: "1.2.0", since: ago(4), reason: "minor" }],
    },
    {
      name: "track major with only patches and minors behind",
      service: makeService({ upstream: upstream(["1.1.0", "1.1.1", "1.2.0"], seen), policy: { track: "major" } }),
      current: [run("prod", "p1", "1.1.0", ago(30))],
      expected: [],
    },
    {
      name: "up to date",
      service: makeService({ upstream: upstream(tags, seen) }),
      current: [run("prod", "p1", "2.0.0", ago(1))],
      expected: [],
    },
    {
      name: "a forge publication date comes before the first sighting: the drift dates from publication",
      service: makeService({ upstream: { ...upstream(tags, seen), published: new Map([["1.1.1", ago(20)], ["1.2.0", ago(15)]]) } }),
      current: [run("prod", "p1", "1.1.0", ago(30))],
      expected: [{ environmentId: "prod", kind: "upstream", targetId: null, running: "1.1.0", expected: "2.0.0", since: ago(20), reason: "major" }],
    },
    {
      name: "published before the running version began running: since it began",
      service: makeService({ upstream: { ...upstream(tags, seen), published: new Map([["1.1.1", ago(20)]]) } }),
      current: [run("prod", "p1", "1.1.0", ago(12))],
      expected: [{ environmentId: "prod", kind: "upstream", targetId: null, running: "1.1.0", expected: "2.0.0", since: ago(12), reason: "major" }],
    },
    {
      name: "the running version started after the release came out",
      service: makeService({ upstream: upstream(["1.1.0", "1.1.1"], seen) }),
      current: [run("prod", "p1", "1.1.0", ago(3))],
      expected: [{ environmentId: "prod", kind: "upstream", targetId: null, running: "1.1.0", expected: "1.1.1", since: ago(3), reason: "patch" }],
    },
    {
      name: "a release without a first-seen time dates from the running row",
      service: makeService({ upstream: upstream(["1.1.0", "1.1.1"]) }),
      current: [run("prod", "p1", "1.1.0", ago(30))],
      expected: [{ environmentId: "prod", kind: "upstream", targetId: null, running: "1.1.0", expected: "1.1.1", since: ago(30), reason: "patch" }],
    },
    {
      name: "the oldest version in an environment is compared",
      service: makeService({ upstream: upstream(["1.1.0", "1.1.1"], seen) }),
      current: [run("prod", "p1", "1.1.1", ago(2)), run("prod", "p2", "1.1.0", ago(30))],
      expected: [{ environmentId: "prod", kind: "upstream", targetId: null, running: "1.1.0", expected: "1.1.1", since: ago(8), reason: "patch" }],
    },
    {
      name: "an unresolved moving tag never drifts",
      service: makeService({ upstream: upstream(tags, seen) }),
      current: [run("prod", "p1", null, ago(30), { tag: "latest" })],
      expected: [],
    },
    {
      name: "not checked yet",
      service: makeService({ upstream: null }),
      current: [run("prod", "p1", "1.1.0", ago(30))],
      expected: [],
    },
    {
      name: "an invalid tag_filter gives no upstream drift rather than failing the evaluation",
      service: makeService({ upstream: upstream(tags, seen), policy: { tag_filter: "(" } }),
      current: [run("prod", "p1", "1.1.0", ago(30))],
      expected: [],
    },
    {
      name: "declared versions count where only Compose files exist",
      service: makeService({ upstream: upstream(["1.1.0", "1.1.1"], seen) }),
      current: [run("dev", "git", "1.1.0", ago(30), { declared: true })],
      expected: [{ environmentId: "dev", kind: "upstream", targetId: null, running: "1.1.0", expected: "1.1.1", since: ago(8), reason: "patch" }],
    },
  ])("$name", (c) => {
    expect(detectKind("upstream", c)).toEqual(c.expected);
  });
});

describe("inconsistent drift", () => {
  it.each<Case>([
    {
      name: "one target of three differs: it is named",
      current: [run("prod", "p1", "1.2.0", ago(2)), run("prod", "p2", "1.2.0", ago(3)), run("prod", "p3", "1.1.0", ago(30))],
      // 1.1.0 started 30 days ago, 1.2.0 three days ago: the second version began 3 days ago
      expected: [{ environmentId: "prod", kind: "inconsistent", targetId: "p3", running: "1.1.0", expected: "1.2.0", since: ago(3) }],
    },
    {
      name: "two targets that disagree: a tie, no target named; oldest vs newest",
      current: [run("prod", "p1", "1.2.0", ago(0, 20)), run("prod", "p2", "1.1.0", ago(30))],
      expected: [{ environmentId: "prod", kind: "inconsistent", targetId: null, running: "1.1.0", expected: "1.2.0", since: ago(0, 20) }],
    },
    {
      name: "three versions on three targets",
      current: [run("prod", "p1", "1.2.0", ago(1)), run("prod", "p2", "1.1.0", ago(30)), run("prod", "p3", "1.3.0", ago(0, 5))],
      expected: [{ environmentId: "prod", kind: "inconsistent", targetId: null, running: "1.1.0", expected: "1.3.0", since: ago(1) }],
    },
    {
      name: "all targets agree",
      current: [run("prod", "p1", "1.2.0", ago(1)), run("prod", "p2", "1.2.0", ago(3))],
      expected: [],
    },
    {
      name: "an unresolved moving tag on one target proves nothing",
      current: [run("prod", "p1", "1.2.0", ago(1)), run("prod", "p2", null, ago(3), { tag: "latest" })],
      expected: [],
    },
    {
      name: "a declared row is not a target that runs",
      current: [run("prod", "p1", "1.2.0", ago(1)), run("prod", "git", "1.1.0", ago(3), { declared: true })],
      expected: [],
    },
  ])("$name", (c) => {
    expect(detectKind("inconsistent", c)).toEqual(c.expected);
  });
});

describe("declared drift", () => {
  const decl = (version: string | null, since: Date, tag?: string) =>
    run("prod", "git", version, since, { declared: true, tag: tag ?? version ?? "latest" });
  it.each<Case>([
    { name: "runs what Git declares", current: [decl("1.2.0", ago(5)), run("prod", "p1", "1.2.0", ago(4))], expected: [] },
    {
      name: "runs something else: since the later of the two rows",
      current: [decl("1.2.0", ago(5)), run("prod", "p1", "1.1.0", ago(30))],
      expected: [{ environmentId: "prod", kind: "declared", targetId: "p1", running: "1.1.0", expected: "1.2.0", since: ago(5) }],
    },
    {
      name: "one of two targets differs: it is named",
      current: [decl("1.2.0", ago(5)), run("prod", "p1", "1.2.0", ago(4)), run("prod", "p2", "1.1.9", ago(0, 40))],
      expected: [{ environmentId: "prod", kind: "declared", targetId: "p2", running: "1.1.9", expected: "1.2.0", since: ago(0, 40) }],
    },
    {
      name: "both targets differ: none named",
      current: [decl("1.2.0", ago(5)), run("prod", "p1", "1.1.0", ago(9)), run("prod", "p2", "1.1.0", ago(7))],
      expected: [{ environmentId: "prod", kind: "declared", targetId: null, running: "1.1.0", expected: "1.2.0", since: ago(5) }],
    },
    {
      name: "a resolved moving tag running matches the declared exact version",
      current: [decl("1.2.0", ago(5)), run("prod", "p1", "1.2.0", ago(4), { tag: "1", digest: "sha256:a" })],
      expected: [],
    },
    {
      name: "the same moving tag declared and running: same tag",
      current: [decl(null, ago(5), "1"), run("prod", "p1", "1.2.0", ago(4), { tag: "1", digest: "sha256:a" })],
      expected: [],
    },
    {
      name: "a declared moving tag (never resolved: no digest in Git) proves nothing",
      current: [decl(null, ago(5), "latest"), run("prod", "p1", "1.2.0", ago(4))],
      expected: [],
    },
    {
      name: "an unresolved moving tag running proves nothing",
      current: [decl("1.2.0", ago(5)), run("prod", "p1", null, ago(4), { tag: "latest" })],
      expected: [],
    },
    {
      name: "tags that are not versions are compared as tags",
      current: [decl(null, ago(5), "sha-1a2b3c4"), run("prod", "p1", null, ago(2), { tag: "sha-9f8e7d6" })],
      expected: [{ environmentId: "prod", kind: "declared", targetId: "p1", running: "sha-9f8e7d6", expected: "sha-1a2b3c4", since: ago(2) }],
    },
    { name: "only Compose files: nothing to compare", current: [decl("1.2.0", ago(5))], expected: [] },
  ])("$name", (c) => {
    expect(detectKind("declared", c)).toEqual(c.expected);
  });
});

describe("eol drift", () => {
  const cycle = (eolDate: Date | null) => ({ product: "nginx", cycle: "1.26", eolDate });
  const withEol = (entries: [string, Date | null][]) =>
    makeService({ eol: new Map(entries.map(([v, date]) => [v, cycle(date)] as const)) });
  it.each<Case>([
    {
      name: "support ended: eol_passed, since the end-of-life day",
      service: withEol([["1.26.2", ago(10)]]),
      current: [run("prod", "p1", "1.26.2", ago(200))],
      expected: [{ environmentId: "prod", kind: "eol", targetId: null, running: "1.26.2", expected: null, since: ago(10), reason: "eol_passed" }],
    },
    {
      name: "support ended before the version began running there: since it began",
      service: withEol([["1.26.2", ago(10)]]),
      current: [run("prod", "p1", "1.26.2", ago(4))],
      expected: [{ environmentId: "prod", kind: "eol", targetId: null, running: "1.26.2", expected: null, since: ago(4), reason: "eol_passed" }],
    },
    {
      name: "support ends in 30 days: eol_soon",
      service: withEol([["1.26.2", ago(-30)]]),
      current: [run("prod", "p1", "1.26.2", ago(200))],
      expected: [{ environmentId: "prod", kind: "eol", targetId: null, running: "1.26.2", expected: null, since: ago(30), reason: "eol_soon" }],
    },
    {
      name: "support ends in exactly 60 days: soon",
      service: withEol([["1.26.2", ago(-60)]]),
      current: [run("prod", "p1", "1.26.2", ago(200))],
      expected: [{ environmentId: "prod", kind: "eol", targetId: null, running: "1.26.2", expected: null, since: NOW, reason: "eol_soon" }],
    },
    { name: "support ends in 90 days", service: withEol([["1.26.2", ago(-90)]]), current: [run("prod", "p1", "1.26.2", ago(200))], expected: [] },
    { name: "no end date known", service: withEol([["1.26.2", null]]), current: [run("prod", "p1", "1.26.2", ago(200))], expected: [] },
    { name: "cycle unknown", service: withEol([]), current: [run("prod", "p1", "1.26.2", ago(200))], expected: [] },
    {
      name: "deployed after the window opened: since the deploy",
      service: withEol([["1.26.2", ago(-30)]]),
      current: [run("prod", "p1", "1.26.2", ago(5))],
      expected: [{ environmentId: "prod", kind: "eol", targetId: null, running: "1.26.2", expected: null, since: ago(5), reason: "eol_soon" }],
    },
    {
      name: "several versions: the cycle that ends first",
      service: withEol([["1.26.2", ago(-30)], ["1.24.0", ago(100)]]),
      current: [run("prod", "p1", "1.26.2", ago(50)), run("prod", "p2", "1.24.0", ago(400))],
      expected: [{ environmentId: "prod", kind: "eol", targetId: null, running: "1.24.0", expected: null, since: ago(100), reason: "eol_passed" }],
    },
    {
      name: "declared versions count where only Compose files exist",
      service: withEol([["1.26.2", ago(10)]]),
      current: [run("dev", "git", "1.26.2", ago(200), { declared: true })],
      expected: [{ environmentId: "dev", kind: "eol", targetId: null, running: "1.26.2", expected: null, since: ago(10), reason: "eol_passed" }],
    },
  ])("$name", (c) => {
    expect(detectKind("eol", c)).toEqual(c.expected);
  });
});

describe("detectDifferences", () => {
  it("a moving tag that is not resolved anywhere gives no drift of any kind", () => {
    const service = makeService({
      upstream: { tags: ["1.1.0", "2.0.0", "latest"], firstSeen: new Map() },
      eol: new Map([["1.1.0", { product: "x", cycle: "1", eolDate: ago(10) }]]),
    });
    const current = ["dev", "staging", "prod"].flatMap((env) => [
      run(env, `${env}-1`, null, ago(3), { tag: "latest", digest: "sha256:unknown" }),
      run(env, `${env}-2`, null, ago(9), { tag: "latest", digest: "sha256:other" }),
    ]);
    expect(detectDifferences({ environments: ENVS, services: [service], current, history: [], now: NOW })).toEqual([]);
  });

  it("ignores rows of services it was not given", () => {
    const current = [run("staging", "s1", "1.2.0", ago(10)), run("prod", "p1", "1.1.0", ago(30), { serviceId: "other" })];
    expect(detectDifferences({ environments: ENVS, services: [makeService()], current, history: [], now: NOW })).toEqual([]);
  });
});
