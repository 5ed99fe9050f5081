import { describe, expect, it } from "vitest";
import { niceTicks, timeTicks } from "./ticks";

describe("niceTicks", () => {
  it.each<[number, number, number, boolean, number[]]>([
    [0, 19, 5, true, [0, 5, 10, 15, 20]],
    [0, 14, 5, true, [0, 5, 10, 15]],
    [0, 3, 5, true, [0, 1, 2, 3]],
    [0, 1, 5, true, [0, 1]],
    [0, 0, 5, true, [0, 1]],
    [0, 7, 5, true, [0, 2, 4, 6, 8]],
    [0, 97, 5, true, [0, 25, 50, 75, 100]],
    [0, 1234, 5, true, [0, 500, 1000, 1500]],
    [0, 1, 5, false, [0, 0.25, 0.5, 0.75, 1]],
    [0, 0.3, 4, false, [0, 0.1, 0.2, 0.3]],
    [-3, 7, 5, false, [-5, -2.5, 0, 2.5, 5, 7.5]],
  ])("%d..%d (%d ticks, integer %s)", (min, max, count, integer, expected) => {
    const ticks = niceTicks(min, max, count, { integer });
    expect(ticks.values).toEqual(expected);
    expect(ticks.max).toBeGreaterThanOrEqual(max);
    expect(ticks.min).toBeLessThanOrEqual(min);
  });

  it("survives non-finite input", () => {
    expect(niceTicks(Number.NaN, Number.POSITIVE_INFINITY, 5, { integer: true }).values).toEqual([0, 1]);
  });
});

describe("timeTicks", () => {
  it("puts 30 days on Mondays at midnight UTC", () => {
    const ticks = timeTicks(new Date("2026-10-21T10:00:00Z"), new Date("2026-11-20T10:00:00Z"), 7);
    expect(ticks.values.map((d) => d.toISOString())).toEqual([
      "2026-10-26T00:00:00.000Z",
      "2026-11-02T00:00:00.000Z",
      "2026-11-09T00:00:00.000Z",
      "2026-11-16T00:00:00.000Z",
    ]);
  });

  it("uses days for a week and hours for a day", () => {
    expect(timeTicks(new Date("2026-11-13T10:00:00Z"), new Date("2026-11-20T10:00:00Z"), 8).values[0]?.toISOString()).toBe("2026-11-14T00:00:00.000Z");
    expect(timeTicks(new Date("2026-11-20T01:30:00Z"), new Date("2026-11-20T10:00:00Z"), 6).values.map((d) => d.getUTCHours())).toEqual([3, 6, 9]);
  });
});
