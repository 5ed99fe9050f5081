import { describe, expect, it } from "vitest";
import { ago, ENVS, makeService, NOW, run } from "@/lib/domain/drift/test-support";
import type { CurrentRun } from "@/lib/domain/drift";
import { listPromotions, type ReleaseInfo } from "./promotions";

const DAY = 86_400;
const at = (serviceId: string) => (env: string, target: string, version: string | null, since: Date, over: Partial<CurrentRun> = {}) =>
  run(env, target, version, since, { serviceId, ...over });
const web = at("web");
const api = at("api");
const db = at("db");
const cache = at("cache");

const PUBLISHED: Record<string, Date> = { "1.1.1": ago(25), "1.2.0": ago(12), "1.2.1": ago(8), "1.3.0": ago(7), "1.3.1": ago(2) };
const releaseInfo = (serviceId: string, version: string): ReleaseInfo => ({
  published_at: PUBLISHED[version] ?? null,
  release_notes_url: serviceId === "web" ? `https://github.com/acme/web/releases/tag/v${version}` : null,
});

const SERVICES = [
  makeService({
    id: "web", name: "web",
    upstream: { tags: ["1.1.0", "1.1.1", "1.2.0", "1.2.1", "1.3.0", "1.3.1", "1.3.2-rc.1", "1.4.0", "latest"], firstSeen: new Map() },
  }),
  makeService({ id: "api", name: "api", upstream: null }),
  makeService({ id: "db", name: "db" }),
  makeService({ id: "cache", name: "cache" }),
];

const CURRENT: CurrentRun[] = [
  // web: dev runs 1.3.0 and 1.3.1 (newest 1.3.1, since 1d); staging runs 1.2.0 on both targets (since 9d on s2);
  // production runs 1.1.0 on p1 and 1.2.0 on p2 (oldest 1.1.0).
  web("dev", "d1", "1.3.0", ago(6)), web("dev", "d2", "1.3.1", ago(1)),
  web("staging", "s1", "1.2.0", ago(7)), web("staging", "s2", "1.2.0", ago(9)),
  web("prod", "p1", "1.1.0", ago(30)), web("prod", "p2", "1.2.0", ago(4)),
  // api: staging does not run it; dev's 2.1.0 waits for production's 2.0.0; not checked upstream yet.
  api("dev", "d1", "2.1.0", ago(3)), api("prod", "p1", "2.0.0", ago(20)),
  // db: the same everywhere.
  db("dev", "d1", "16.2", ago(5)), db("prod", "p1", "16.2", ago(4)),
  // cache: an unresolved moving tag in staging proves nothing.
  cache("staging", "s1", null, ago(5), { tag: "latest" }), cache("prod", "p1", "7.0.0", ago(50)),
];

describe("listPromotions", () => {
  it("lists every waiting version, longest waiting first, with the releases it brings", () => {
    expect(listPromotions({ environments: ENVS, services: SERVICES, current: CURRENT, releaseInfo, now: NOW })).toEqual([
      {
        service: "web", from_environment: "staging", to_environment: "production",
        from_version: "1.1.0", to_version: "1.2.0",
        waiting_since: ago(9), waiting_seconds: 9 * DAY, // staging's s2 has run 1.2.0 for nine days
        releases: [
          { version: "1.1.1", published_at: ago(25), release_notes_url: "https://github.com/acme/web/releases/tag/v1.1.1" },
          { version: "1.2.0", published_at: ago(12), release_notes_url: "https://github.com/acme/web/releases/tag/v1.2.0" },
        ],
      },
      {
        service: "api", from_environment: "dev", to_environment: "production", // staging does not run api
        from_version: "2.0.0", to_version: "2.1.0",
        waiting_since: ago(3), waiting_seconds: 3 * DAY,
        releases: [{ version: "2.1.0", published_at: null, release_notes_url: null }], // no upstream list: what runs
      },
      {
        service: "web", from_environment: "dev", to_environment: "staging",
        from_version: "1.2.0", to_version: "1.3.1",
        waiting_since: ago(1), waiting_seconds: DAY,
        // after 1.2.0 up to 1.3.1; not 1.4.0 (beyond), not 1.3.2-rc.1 (prerelease, and beyond)
        releases: [
          { version: "1.2.1", published_at: ago(8), release_notes_url: "https://github.com/acme/web/releases/tag/v1.2.1" },
          { version: "1.3.0", published_at: ago(7), release_notes_url: "https://github.com/acme/web/releases/tag/v1.3.0" },
          { version: "1.3.1", published_at: ago(2), release_notes_url: "https://github.com/acme/web/releases/tag/v1.3.1" },
        ],
      },
    ]);
  });

  it.each<[string, CurrentRun[]]>([
    ["a later environment ahead (hotfix) waits for nothing", [web("staging", "s1", "1.2.0", ago(9)), web("prod", "p1", "1.2.1", ago(1))]],
    ["versions not comparable like with like", [web("staging", "s1", "1.3.0-alpine", ago(9)), web("prod", "p1", "1.2.0", ago(1))]],
    ["one environment only", [web("prod", "p1", "1.2.0", ago(1))]],
  ])("%s: none", (_name, current) => {
    expect(listPromotions({ environments: ENVS, services: SERVICES, current, releaseInfo, now: NOW })).toEqual([]);
  });

  it("a prerelease waiting in staging is listed itself even when the policy skips prereleases", () => {
    const current = [web("staging", "s1", "1.3.2-rc.1", ago(2)), web("prod", "p1", "1.3.1", ago(2))];
    const [only] = listPromotions({ environments: ENVS, services: SERVICES, current, releaseInfo, now: NOW });
    expect(only?.releases.map((r) => r.version)).toEqual(["1.3.2-rc.1"]);
  });
});
