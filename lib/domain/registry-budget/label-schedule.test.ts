import { describe, expect, it } from "vitest";
import { isSourceLabelNeeded, LABEL_REFRESH_MS, LABEL_SPREAD_MS, labelOffsetMs, labelRetryAt, nextLabelReadAt } from "./label-schedule";

const T = new Date("2026-11-27T12:00:00Z");
const MIN = 60_000;

describe("isSourceLabelNeeded", () => {
  it.each<[string, string, boolean, boolean[], boolean]>([
    ["no policy, no catalog entry", "docker.io/acme/app", false, [false], true],
    ["official image: its label names the packaging repository", "docker.io/library/nginx", false, [false], false],
    ["the catalog names the forge", "docker.io/bitnami/redis", true, [false, false], false],
    ["every service's policy names the forge", "ghcr.io/acme/app", false, [true, true], false],
    ["one service without a forge of its own", "ghcr.io/acme/app", false, [true, false], true],
    ["no service tracks it", "ghcr.io/acme/app", false, [], false],
  ])("%s", (_, key, catalog, policies, expected) => {
    expect(isSourceLabelNeeded({ repositoryKey: key, catalogNamesForge: catalog, policiesNameForge: policies })).toBe(expected);
  });
});

describe("label schedule", () => {
  it("spreads repositories over a day past the week, stably", () => {
    const offsets = Array.from({ length: 200 }, (_, i) => labelOffsetMs(`00000000-0000-4000-8000-${String(i).padStart(12, "0")}`));
    for (const o of offsets) {
      expect(o).toBeGreaterThanOrEqual(0);
      expect(o).toBeLessThan(LABEL_SPREAD_MS);
    }
    expect(new Set(offsets.map((o) => Math.floor(o / 3_600_000))).size).toBeGreaterThan(20);
    expect(labelOffsetMs("a")).toBe(labelOffsetMs("a"));
    const next = nextLabelReadAt(T, "repo-1").getTime() - T.getTime();
    expect(next).toBeGreaterThanOrEqual(LABEL_REFRESH_MS);
    expect(next).toBeLessThan(LABEL_REFRESH_MS + LABEL_SPREAD_MS);
  });
  it.each([[1, 15], [2, 30], [3, 60], [5, 240], [7, 960], [8, 1440], [30, 1440]])("after %i failures: retry in %i min", (failures, minutes) => {
    expect(labelRetryAt(T, failures).getTime() - T.getTime()).toBe(minutes * MIN);
  });
});
