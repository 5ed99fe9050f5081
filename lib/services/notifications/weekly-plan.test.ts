import { describe, expect, it } from "vitest";
import { isoWeekOf, planTimeOfWeek } from "./weekly-plan";

describe("isoWeekOf", () => {
  it.each([
    ["2026-01-01T00:00:00Z", "2026-W01"], // a Thursday: week 1 of its own year
    ["2025-12-29T00:00:00Z", "2026-W01"], // Monday of that week, still in December
    ["2027-01-03T23:59:59Z", "2026-W53"], // a Sunday in week 53 of the year before
    ["2026-01-05T09:00:00Z", "2026-W02"],
    ["2026-01-11T23:59:59Z", "2026-W02"],
    ["2024-12-30T08:00:00Z", "2025-W01"],
    ["2021-01-03T12:00:00Z", "2020-W53"],
  ])("%s is in %s", (at, week) => {
    expect(isoWeekOf(new Date(at))).toBe(week);
  });
});

describe("planTimeOfWeek", () => {
  it.each([
    ["2026-01-05T07:59:00Z", "2026-01-05T08:00:00.000Z"],
    ["2026-01-05T08:00:00Z", "2026-01-05T08:00:00.000Z"],
    ["2026-01-08T15:00:00Z", "2026-01-05T08:00:00.000Z"],
    ["2026-01-11T23:59:59Z", "2026-01-05T08:00:00.000Z"],
    ["2026-01-12T00:00:00Z", "2026-01-12T08:00:00.000Z"],
  ])("the plan of the week of %s is due at %s", (at, due) => {
    expect(planTimeOfWeek(new Date(at)).toISOString()).toBe(due);
  });
});
