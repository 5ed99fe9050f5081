import { describe, expect, it } from "vitest";
import { DRIFT_KINDS } from "@/lib/domain/policy";
import { UPDATE_REASONS } from "@/lib/domain/insights";
import { DRIFT_KIND_NAME, DRIFT_STATE_NAME, formatAge, formatAgeSince, formatAgo, inSentence, listVersions, REASON_NAME } from "./words";

const S = 1_000, M = 60 * S, H = 60 * M, D = 24 * H;

describe("formatAge", () => {
  it.each([
    [0, "0 seconds"],
    [999, "0 seconds"],
    [S, "1 second"],
    [12 * S, "12 seconds"],
    [2 * M, "2 minutes"],
    [2 * M + 5 * S, "2 minutes 5 seconds"],
    [H, "1 hour"],
    [19 * H + M, "19 hours 1 minute"],
    [19 * H + M + 30 * S, "19 hours 1 minute"],
    [D, "1 day"],
    [43 * D, "43 days"],
    [3 * D + 4 * H + 5 * M, "3 days 4 hours"],
    [3 * D + 5 * M, "3 days"],
    [-5 * M, "0 seconds"],
  ])("%d ms is %s", (ms, words) => {
    expect(formatAge(ms)).toBe(words);
  });

  it("never writes a bare unit letter that could read as months", () => {
    for (const ms of [2 * M, 2 * H, 2 * D, 2 * D + 2 * M, 61 * M]) expect(formatAge(ms)).not.toMatch(/\d[smhdw]\b/);
  });
});

describe("formatAgeSince and formatAgo", () => {
  const now = new Date("2026-11-29T06:00:00Z");
  it.each([
    ["2026-11-29T05:58:00Z", "2 minutes", "2 minutes ago"],
    ["2026-11-29T05:59:30Z", "30 seconds", "just now"],
    ["2026-10-17T06:00:00Z", "43 days", "43 days ago"],
    ["2026-11-28T10:59:00Z", "19 hours 1 minute", "19 hours ago"],
    ["2026-11-30T00:00:00Z", "0 seconds", "just now"],
  ])("since %s: %s, %s", (at, since, ago) => {
    expect(formatAgeSince(new Date(at), now)).toBe(since);
    expect(formatAgo(new Date(at), now)).toBe(ago);
  });
});

describe("names", () => {
  it("gives every drift kind and every reason a distinct name", () => {
    expect(DRIFT_KINDS.map((k) => DRIFT_KIND_NAME[k]).every(Boolean)).toBe(true);
    expect(new Set(DRIFT_KINDS.map((k) => DRIFT_KIND_NAME[k])).size).toBe(DRIFT_KINDS.length);
    expect(new Set(UPDATE_REASONS.map((r) => REASON_NAME[r])).size).toBe(UPDATE_REASONS.length);
  });

  it("names a pipeline drift and its update reason alike", () => {
    expect(REASON_NAME.behind_previous_env).toBe(DRIFT_KIND_NAME.env);
    expect(DRIFT_KIND_NAME.env).toBe("Behind the previous environment");
  });

  it("uses no jargon for drift states", () => {
    expect(Object.values(DRIFT_STATE_NAME).join(" ")).not.toMatch(/announced/);
  });

  it.each([
    ["End of life", "end of life"],
    ["Differs from Git", "differs from Git"],
  ])("%s inside a sentence is %s", (name, words) => {
    expect(inSentence(name)).toBe(words);
  });
});

describe("listVersions", () => {
  it.each([
    [[], ""],
    [["4.8.0"], "4.8.0"],
    [["14.15", "16.6"], "14.15 and 16.6"],
    [["1.0", "1.1", "1.2"], "1.0, 1.1 and 1.2"],
    [["1.0.0", "1.1.0", "1.2.0", "1.4.0"], "4 versions, 1.0.0 to 1.4.0"],
  ])("%j reads %s", (versions, words) => {
    expect(listVersions(versions)).toBe(words);
  });
});
