import { describe, expect, it } from "vitest";
import { canSpend, nextSpendAt, remainingPulls, reserveOf, type BudgetView, type PullPurpose } from "./budget";

const T = new Date("2026-11-27T12:00:00Z");
const HOUR = 3_600_000;
const ago = (min: number) => new Date(T.getTime() - min * 60_000);
const view = (o: Partial<BudgetView> & { labels?: number[]; resolves?: number[] } = {}): BudgetView => ({
  limit: 10,
  windowMs: HOUR,
  headerRemaining: null,
  headerAt: null,
  pullsSinceHeader: 0,
  blockedUntil: null,
  ...o,
  pulls: [
    ...(o.labels ?? []).map((m) => ({ at: ago(m), purpose: "label" as const })),
    ...(o.resolves ?? []).map((m) => ({ at: ago(m), purpose: "resolve" as const })),
  ].sort((a, b) => a.at.getTime() - b.at.getTime()),
});

describe("reserveOf", () => {
  it.each([[1, 2], [10, 2], [20, 2], [21, 3], [100, 10], [200, 20]])("limit %i keeps %i free", (limit, reserve) => {
    expect(reserveOf(limit)).toBe(reserve);
  });
});

describe("remainingPulls", () => {
  it.each<[string, BudgetView, number]>([
    ["nothing spent", view(), 10],
    ["three of ours in the window", view({ resolves: [5, 10, 50] }), 7],
    ["pulls older than the window are free again", view({ resolves: [61, 90, 10] }), 9],
    ["the host says fewer (someone else pulls from this address)", view({ headerRemaining: 4, headerAt: ago(5) }), 4],
    ["our pulls since the header count against it", view({ headerRemaining: 4, headerAt: ago(20), pullsSinceHeader: 1, resolves: [10, 30] }), 3],
    ["a header older than the window is ignored", view({ headerRemaining: 0, headerAt: ago(61) }), 10],
    ["the host's word is never above our own count", view({ headerRemaining: 9, headerAt: ago(1), labels: [30, 31, 32] }), 7],
    ["never negative", view({ headerRemaining: 0, headerAt: ago(1), pullsSinceHeader: 1, resolves: [0.5] }), 0],
  ])("%s → %i", (_, v, expected) => {
    expect(remainingPulls(v, T)).toBe(expected);
  });
});

describe("canSpend", () => {
  it.each<[string, BudgetView, PullPurpose, number, boolean]>([
    ["a resolution may spend down to the reserve", view({ resolves: [1, 2, 3, 4, 5, 6] }), "resolve", 2, true],
    ["but not into it", view({ resolves: [1, 2, 3, 4, 5, 6, 7] }), "resolve", 2, false],
    ["a label takes at most half of what is left above the reserve", view(), "label", 4, true],
    ["not more", view(), "label", 5, false],
    ["half of what is left once others pulled", view({ resolves: [1, 2, 3, 4] }), "label", 2, true],
    ["half of what is left once others pulled (3 of 4)", view({ resolves: [1, 2, 3, 4] }), "label", 3, false],
    ["labels never more than half a window's pulls", view({ labels: [1, 2, 3] }), "label", 2, false],
    ["the last label pull of the window", view({ labels: [1, 2, 3] }), "label", 1, true],
    ["labels free again after an hour", view({ labels: [61, 62, 63, 64] }), "label", 2, true],
    ["a label waits while the host says few are left", view({ headerRemaining: 3, headerAt: ago(1) }), "label", 1, false],
    ["a resolution may take the last one above the reserve", view({ headerRemaining: 3, headerAt: ago(1) }), "resolve", 1, true],
    ["nothing while blocked after a 429", view({ blockedUntil: new Date(T.getTime() + 60_000) }), "resolve", 1, false],
    ["a block that has ended", view({ blockedUntil: ago(1) }), "resolve", 1, true],
    ["nothing to spend is always fine", view({ blockedUntil: new Date(T.getTime() + 60_000) }), "label", 0, true],
    ["100 an hour signed in: labels up to 45", view({ limit: 100 }), "label", 45, true],
    ["100 an hour signed in: not 46", view({ limit: 100 }), "label", 46, false],
  ])("%s", (_, v, purpose, pulls, expected) => {
    expect(canSpend(v, T, purpose, pulls)).toBe(expected);
  });
});

describe("nextSpendAt", () => {
  it("is now when the pulls may be spent", () => {
    expect(nextSpendAt(view(), T, "label", 2)).toEqual(T);
  });
  it("is when enough of our pulls leave the window", () => {
    // 8 pulls in the window, 2 left (the reserve). A label of 2 needs 6 left (the reserve, then twice 2):
    // the fourth oldest pull, 35 minutes ago, must leave the window.
    const v = view({ resolves: [50, 40, 30, 20, 10, 5], labels: [45, 35] });
    expect(nextSpendAt(v, T, "label", 2)).toEqual(new Date(ago(35).getTime() + HOUR + 1));
  });
  it("is when a 429's block ends", () => {
    const until = new Date(T.getTime() + 20 * 60_000);
    expect(nextSpendAt(view({ blockedUntil: until }), T, "resolve", 1)).toEqual(new Date(until.getTime() + 1));
  });
  it("is when the host's own low count expires", () => {
    const v = view({ headerRemaining: 0, headerAt: ago(10) });
    expect(nextSpendAt(v, T, "label", 1)).toEqual(new Date(ago(10).getTime() + HOUR + 1));
  });
});
