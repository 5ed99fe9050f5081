import { describe, expect, it } from "vitest";
import { isSourceLabelNeeded, LABEL_REFRESH_MS, labelOffsetMs, labelRetryAt, nextLabelReadAt } from "./label-schedule";

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
  const ids = Array.from({ length: 700 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`);

  it("gives each repository its own minute of the week, spread over the week", () => {
    const offsets = ids.map(labelOffsetMs);
    for (const o of offsets) {
      expect(o).toBeGreaterThanOrEqual(0);
      expect(o).toBeLessThan(LABEL_REFRESH_MS);
      expect(o % MIN).toBe(0);
    }
    expect(labelOffsetMs(ids[0]!)).toBe(labelOffsetMs(ids[0]!));
    // 700 repositories over 7 days: every day gets some, none most.
    const perDay = Array.from({ length: 7 }, (_, d) => offsets.filter((o) => Math.floor(o / (24 * 60 * MIN)) === d).length);
    for (const n of perDay) {
      expect(n).toBeGreaterThan(50);
      expect(n).toBeLessThan(150);
    }
  });

  it("reads six days or more after the last read, at the repository's minute, then weekly", () => {
    for (const id of ids.slice(0, 50)) {
      const first = nextLabelReadAt(T, id);
      expect(first.getTime() - T.getTime()).toBeGreaterThanOrEqual(LABEL_REFRESH_MS - 24 * 60 * MIN);
      expect(first.getTime() - T.getTime()).toBeLessThan(2 * LABEL_REFRESH_MS - 24 * 60 * MIN);
      expect(((first.getTime() % LABEL_REFRESH_MS) + LABEL_REFRESH_MS) % LABEL_REFRESH_MS).toBe(labelOffsetMs(id));
      // Read on time, or late while waiting for quota: at the same minute a week on, never a week skipped.
      expect(nextLabelReadAt(first, id).getTime() - first.getTime()).toBe(LABEL_REFRESH_MS);
      expect(nextLabelReadAt(new Date(first.getTime() + 7 * MIN), id).getTime() - first.getTime()).toBe(LABEL_REFRESH_MS);
      expect(nextLabelReadAt(new Date(first.getTime() + 20 * 60 * MIN), id).getTime() - first.getTime()).toBe(LABEL_REFRESH_MS);
    }
  });

  it.each([[1, 15], [2, 30], [3, 60], [5, 240], [7, 960], [8, 1440], [30, 1440]])("after %i failures: retry in %i min", (failures, minutes) => {
    expect(labelRetryAt(T, failures).getTime() - T.getTime()).toBe(minutes * MIN);
  });
});
