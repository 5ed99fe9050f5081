import { describe, expect, it } from "vitest";
import { nextQuietAt, targetStateOf } from "./quiet";

const now = new Date("2026-11-29T12:00:00Z");
const ago = (ms: number) => new Date(now.getTime() - ms);
const QUIET = 15 * 60_000;

describe("targetStateOf", () => {
  it.each([
    ["reported a minute ago", ago(60_000), "reporting"],
    ["reported exactly the quiet delay ago", ago(QUIET), "reporting"],
    ["reported a second more than the delay ago", ago(QUIET + 1_000), "quiet"],
    ["reported yesterday", ago(86_400_000), "quiet"],
    ["never reported", null, "quiet"],
  ] as const)("a target that %s is %s", (_, seen, state) => {
    expect(targetStateOf(seen, now, QUIET)).toBe(state);
  });
});

describe("nextQuietAt", () => {
  it("is when the soonest reporting target passes the delay", () => {
    expect(nextQuietAt([ago(60_000), ago(10 * 60_000), null, ago(QUIET * 2)], now, QUIET)).toBe(ago(10 * 60_000).getTime() + QUIET + 1);
  });
  it("is null when every target is quiet already", () => {
    expect(nextQuietAt([ago(QUIET * 2), null], now, QUIET)).toBeNull();
  });
});
