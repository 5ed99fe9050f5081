import { describe, expect, it } from "vitest";
import { deriveUpstreamState, type UpstreamCheckRecord, type UpstreamStatus } from "./state";

const NOW = new Date("2026-03-01T12:00:00Z");
const HOUR = 3_600_000;
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * HOUR);

describe("deriveUpstreamState (hourly checks)", () => {
  it.each<[string, UpstreamCheckRecord, UpstreamStatus]>([
    ["never checked", { lastAttemptAt: null, lastSuccessAt: null, lastError: null }, { state: "unchecked", error: null, ageMs: null }],
    ["checked a minute ago", { lastAttemptAt: hoursAgo(1 / 60), lastSuccessAt: hoursAgo(1 / 60), lastError: null }, { state: "ok", error: null, ageMs: 60_000 }],
    ["last success exactly three intervals ago", { lastAttemptAt: hoursAgo(3), lastSuccessAt: hoursAgo(3), lastError: null }, { state: "ok", error: null, ageMs: 3 * HOUR }],
    ["no success for more than three intervals", { lastAttemptAt: hoursAgo(4), lastSuccessAt: hoursAgo(4), lastError: null }, { state: "stale", error: "no successful check for 4 hours", ageMs: 4 * HOUR }],
    ["first check failed", { lastAttemptAt: hoursAgo(0), lastSuccessAt: null, lastError: "ghcr.io: name not resolved" }, { state: "failed", error: "ghcr.io: name not resolved", ageMs: null }],
    ["failed after a good check: the old knowledge keeps its age", { lastAttemptAt: hoursAgo(0), lastSuccessAt: hoursAgo(2), lastError: "503 from quay.io: registry error, retrying" }, { state: "failed", error: "503 from quay.io: registry error, retrying", ageMs: 2 * HOUR }],
    ["failing for days: failed says why, not stale", { lastAttemptAt: hoursAgo(0), lastSuccessAt: hoursAgo(72), lastError: "quay.io: connection refused" }, { state: "failed", error: "quay.io: connection refused", ageMs: 72 * HOUR }],
    ["attempt time unknown, error kept: failed", { lastAttemptAt: null, lastSuccessAt: hoursAgo(1), lastError: "quay.io: connection refused" }, { state: "failed", error: "quay.io: connection refused", ageMs: HOUR }],
    ["an error older than the last success is left over", { lastAttemptAt: hoursAgo(2), lastSuccessAt: hoursAgo(1), lastError: "quay.io: connection refused" }, { state: "ok", error: null, ageMs: HOUR }],
    ["a multi-line error shows its first line", { lastAttemptAt: hoursAgo(0), lastSuccessAt: null, lastError: "quay.io: connection refused\n    at connect (net.js:1)" }, { state: "failed", error: "quay.io: connection refused", ageMs: null }],
    ["an empty error is no error", { lastAttemptAt: hoursAgo(0), lastSuccessAt: hoursAgo(0), lastError: "" }, { state: "ok", error: null, ageMs: 0 }],
  ])("%s", (_name, record, expected) => {
    expect(deriveUpstreamState(record, { checkIntervalMs: HOUR, now: NOW })).toEqual(expected);
  });

  it("stale follows the interval it is given", () => {
    const record = { lastAttemptAt: hoursAgo(4), lastSuccessAt: hoursAgo(4), lastError: null };
    expect(deriveUpstreamState(record, { checkIntervalMs: 2 * HOUR, now: NOW }).state).toBe("ok");
    expect(deriveUpstreamState(record, { checkIntervalMs: HOUR, now: NOW }).state).toBe("stale");
  });

  it("cuts a very long error to one short line", () => {
    const { error } = deriveUpstreamState({ lastAttemptAt: NOW, lastSuccessAt: null, lastError: "x".repeat(500) }, { checkIntervalMs: HOUR, now: NOW });
    expect(error).toHaveLength(200);
    expect(error?.endsWith("…")).toBe(true);
  });
});
