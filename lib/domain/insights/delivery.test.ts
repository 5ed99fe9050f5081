import { describe, expect, it } from "vitest";
import { ago, ENVS, hist, NOW } from "@/lib/domain/drift/test-support";
import type { HistoryRun } from "@/lib/domain/drift";
import { computeDelivery, medianSeconds } from "./delivery";

const DAY = 86_400;
const web = (env: string, target: string, version: string | null, from: Date, to: Date | null, declared = false): HistoryRun =>
  hist(env, target, version, from, to, { serviceId: "web", declared });
const api = (env: string, target: string, version: string, from: Date, to: Date | null): HistoryRun =>
  hist(env, target, version, from, to, { serviceId: "api" });

// Pipeline dev → staging → production. Arrival = first time a version runs on any target there.
const HISTORY: HistoryRun[] = [
  // web in dev: 1.0.0 (40d ago), 1.1.0 (20d), 1.2.0 (10d), 1.3.0 (6d), 1.3.1 (1d); an unresolved `latest` beside it
  web("dev", "d1", "1.0.0", ago(40), ago(20)),
  web("dev", "d1", "1.1.0", ago(20), ago(10)),
  web("dev", "d1", "1.2.0", ago(10), ago(6)),
  web("dev", "d1", "1.3.0", ago(6), ago(1)),
  web("dev", "d1", "1.3.1", ago(1), null),
  web("dev", "d2", null, ago(15), null),
  // web in staging, two targets: 1.1.0 reaches s1 18d ago and s2 17d ago (arrival 18d);
  // 1.2.0 arrives 9d ago, rolls back to 1.1.0 8d ago, re-deploys 7d ago: one deploy only.
  // 1.3.0 skips staging.
  web("staging", "s1", "1.0.0", ago(38), ago(18)),
  web("staging", "s1", "1.1.0", ago(18), ago(9)),
  web("staging", "s1", "1.2.0", ago(9), ago(8)),
  web("staging", "s1", "1.1.0", ago(8), ago(7)),
  web("staging", "s1", "1.2.0", ago(7), null),
  web("staging", "s2", "1.1.0", ago(17), null),
  // web in production, two targets: 1.1.0 14d (p1) / 13d (p2), 1.2.0 5d (p1) / 4d (p2),
  // a rollback to 1.1.0 on p1 3d ago, then 1.3.0 straight from dev 2d ago.
  web("prod", "p1", "1.0.0", ago(35), ago(14)),
  web("prod", "p1", "1.1.0", ago(14), ago(5)),
  web("prod", "p1", "1.2.0", ago(5), ago(3)),
  web("prod", "p1", "1.1.0", ago(3), ago(2)),
  web("prod", "p1", "1.3.0", ago(2), null),
  web("prod", "p2", "1.1.0", ago(13), ago(4)),
  web("prod", "p2", "1.2.0", ago(4), null),
  web("prod", "git", "1.4.0", ago(1), null, true), // a declaration is not a deploy
  // api: 1.9.0 dev 33d, staging 29d, prod 26d; 2.0.0 dev 12d, staging 11d, prod 8d;
  // hotfix 2.0.1 prod 7d then staging 6d; 2.1.0 dev 3d, staging 2d 12h 1m.
  api("dev", "d1", "1.9.0", ago(33), ago(12)),
  api("dev", "d1", "2.0.0", ago(12), ago(3)),
  api("dev", "d1", "2.1.0", ago(3), null),
  api("staging", "s1", "1.9.0", ago(29), ago(11)),
  api("staging", "s1", "2.0.0", ago(11), ago(6)),
  api("staging", "s1", "2.0.1", ago(6), ago(2, 721)),
  api("staging", "s1", "2.1.0", ago(2, 721), null),
  api("prod", "p1", "1.9.0", ago(26), ago(8)),
  api("prod", "p1", "2.0.0", ago(8), ago(7)),
  api("prod", "p1", "2.0.1", ago(7), null),
];

describe("computeDelivery", () => {
  it.each([
    {
      name: "30-day window",
      window: { from: ago(30), to: NOW },
      expected: {
        // dev: web 1.1.0, 1.2.0, 1.3.0, 1.3.1 + api 2.0.0, 2.1.0 = 6 (web 1.0.0 at 40d and api 1.9.0 at 33d are before the window)
        // staging: web 1.1.0, 1.2.0 (rollback and re-deploy not counted) + api 1.9.0, 2.0.0, 2.0.1, 2.1.0 = 6
        // production: web 1.1.0, 1.2.0, 1.3.0 (rollback not counted, declared 1.4.0 not counted) + api 1.9.0, 2.0.0, 2.0.1 = 6
        environments: [
          { environment: "dev", deploys: 6 },
          { environment: "staging", deploys: 6 },
          { environment: "production", deploys: 6 },
        ],
        lead_times: [
          // dev → staging, by staging arrival in the window:
          //   web 1.1.0: 20d − 18d = 2d = 172800; web 1.2.0: 10d − 9d = 1d = 86400;
          //   api 1.9.0: 33d − 29d = 4d = 345600 (dev arrival before the window still pairs);
          //   api 2.0.0: 12d − 11d = 86400; api 2.1.0: 3d − (2d 12h 1m) = 11h 59m = 43140.
          //   web 1.3.0 skipped staging, api 2.0.1 never ran in dev: no samples.
          //   sorted 43140, 86400, 86400, 172800, 345600 → median 86400
          { from_environment: "dev", to_environment: "staging", median_seconds: 86_400, samples: 5 },
          // staging → production, by production arrival:
          //   web 1.1.0: 18d − 14d = 4d = 345600; web 1.2.0: 9d − 5d = 345600;
          //   api 1.9.0: 29d − 26d = 3d = 259200; api 2.0.0: 11d − 8d = 259200;
          //   web 1.3.0 skipped staging; api 2.0.1 reached production first: no samples.
          //   even count → (259200 + 345600) / 2 = 302400
          { from_environment: "staging", to_environment: "production", median_seconds: 302_400, samples: 4 },
        ],
      },
    },
    {
      name: "7-day window: an arrival exactly at its start counts",
      window: { from: ago(7), to: NOW },
      expected: {
        // dev: web 1.3.0 (6d), 1.3.1 (1d), api 2.1.0 (3d) = 3
        // staging: api 2.0.1 (6d), 2.1.0 (2d 12h 1m) = 2; web's re-deploy of 1.2.0 7d ago is not an arrival
        // production: web 1.2.0 (5d), 1.3.0 (2d), api 2.0.1 (exactly 7d) = 3
        environments: [
          { environment: "dev", deploys: 3 },
          { environment: "staging", deploys: 2 },
          { environment: "production", deploys: 3 },
        ],
        lead_times: [
          // only api 2.1.0: 43140
          { from_environment: "dev", to_environment: "staging", median_seconds: 43_140, samples: 1 },
          // only web 1.2.0: 9d − 5d = 345600
          { from_environment: "staging", to_environment: "production", median_seconds: 4 * DAY, samples: 1 },
        ],
      },
    },
    {
      name: "a window with nothing in it",
      window: { from: ago(100), to: ago(90) },
      expected: {
        environments: [
          { environment: "dev", deploys: 0 },
          { environment: "staging", deploys: 0 },
          { environment: "production", deploys: 0 },
        ],
        lead_times: [
          { from_environment: "dev", to_environment: "staging", median_seconds: null, samples: 0 },
          { from_environment: "staging", to_environment: "production", median_seconds: null, samples: 0 },
        ],
      },
    },
  ])("$name", ({ window, expected }) => {
    expect(computeDelivery({ environments: [...ENVS].reverse(), history: HISTORY, window })).toEqual(expected);
  });

  it("an arrival exactly at the end of the window belongs to the next one", () => {
    const history = [web("dev", "d1", "1.0.0", ago(2), null), web("staging", "s1", "1.0.0", ago(1), null)];
    const result = computeDelivery({ environments: ENVS, history, window: { from: ago(3), to: ago(1) } });
    expect(result.environments.map((e) => e.deploys)).toEqual([1, 0, 0]);
    expect(result.lead_times[0]).toEqual({ from_environment: "dev", to_environment: "staging", median_seconds: null, samples: 0 });
  });
});

describe("medianSeconds", () => {
  it.each<[number[], number | null]>([
    [[], null],
    [[7], 7],
    [[3, 1, 2], 2],
    [[1, 2], 2], // 1.5 rounds to 2
    [[20, 10, 21, 11], 16], // (11 + 20) / 2 = 15.5 → 16
    [[0.4], 0],
  ])("%j → %s", (values, expected) => {
    expect(medianSeconds(values)).toEqual(expected);
  });
});
