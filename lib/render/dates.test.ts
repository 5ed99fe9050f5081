import { describe, expect, it } from "vitest";
import { formatShortDay, formatShortHour, formatUtcDate, formatUtcMinute, parseUtcDay } from "./dates";

describe("dates", () => {
  const date = new Date("2026-11-02T08:05:00Z");
  it("formats in UTC whatever the process time zone", () => {
    expect([formatUtcDate(date), formatUtcMinute(date), formatShortDay(date), formatShortHour(date)]).toEqual([
      "2026-11-02",
      "2026-11-02 08:05",
      "Nov 2",
      "Nov 2 08:00",
    ]);
  });

  it.each([
    ["2026-11-02", "2026-11-02T00:00:00.000Z"],
    ["2026-02-30", null],
    ["2026-11-2", null],
    ["<b>", null],
  ])("parseUtcDay(%j)", (day, expected) => {
    expect(parseUtcDay(day)?.toISOString() ?? null).toBe(expected);
  });
});
