import { describe, expect, it } from "vitest";
import { compareTags, jumpBetween, likeGroupKey } from "./compare";

const SIG = `sha256-${"a1".repeat(32)}.sig`;

describe("compareTags", () => {
  it.each([
    ["1.27.3", "1.27.2", 1],
    ["1.27.2", "1.27.3", -1],
    ["1.27.3", "1.27.3", 0],
    ["1.27.10", "1.27.9", 1],
    ["1.27.3", "1.27.3-alpine", null],
    ["1.27.3-alpine", "1.27.2-alpine", 1],
    ["1.27-alpine", "1.27.3-alpine", null],
    ["1.27.3-alpine3.21", "1.27.3-alpine3.20", 1],
    ["1.27.4-alpine3.20", "1.27.3-alpine3.21", 1],
    ["1.27.3-alpine3.20", "1.27.3-alpine", null],
    ["1.27.3-alpine", "1.27.3-alpine-perl", null],
    ["8.0.39-debian-12-r39", "8.0.39-debian-12-r4", 1],
    ["7.4.0-debian-12-r1", "7.2.5-debian-12-r4", 1],
    ["8.0.39-debian-12-r4", "8.0.39-debian-11-r4", null],
    ["2021.12.16", "10.10.7", null],
    ["2024.10.1", "2024.9.30", 1],
    ["20241105", "20241001", 1],
    ["1.2.3.4", "1.2.3.10", -1],
    ["1.2.3.4", "1.2.3", null],
    ["3.8.0b1", "3.8.0", -1],
    ["3.8.0b1", "3.8.0a2", 1],
    ["3.8.0rc1", "3.8.0b2", 1],
    ["1.0.0-rc.2", "1.0.0-rc.10", -1],
    ["1.0.0-rc.2", "1.0.0", -1],
    ["1.0.0-alpha", "1.0.0-beta", -1],
    ["1.0.0-beta", "1.0.0-beta.1", -1],
    ["1.0.0-preview.7", "1.0.0-rc.1", -1],
    ["2.0.0-beta-alpine", "2.0.0-alpine", -1],
    ["2.0.0-beta-alpine", "1.9.9-alpine", 1],
    ["v3.2.1", "3.2.1", null],
    ["v3.2.1", "v3.10.0", -1],
    ["latest", "1.0.0", null],
    ["alpine", "alpine", null],
    ["sha-abc1234", "sha-abc1235", null],
    [SIG, SIG, null],
    ["4.0.11.2680-ls262", "4.0.11.2680-ls261", 1],
    ["4.0.11.2680-ls262", "4.0.12.1-ls1", -1],
    ["11.3.0-security-01", "11.3.0", 1],
    ["11.3.0-security-01", "11.3.1", -1],
    ["1.26.2-r3-ls290", "1.26.2-r1-ls282", 1],
    ["8.0-M02", "8.0-M01", 1],
    ["8.0-M02", "8.0", -1],
    ["RELEASE.2024-11-07T00-52-20Z", "RELEASE.2024-10-29T16-01-48Z", 1],
    ["9.0.0-preview.7-bookworm-slim", "9.0.0-rc.2-bookworm-slim", -1],
    ["2024.12.0b1", "2024.12.0.dev202411200235", 1],
    ["17rc1", "17", -1],
    ["17beta3", "17rc1", -1],
    ["noble-20241015", "noble-20241011", 1],
    ["noble-20241015", "jammy-20240808", null],
    ["10.0.20348.2849", "10.0.17763.6532", 1],
  ] as const)("%s vs %s → %s", (a, b, expected) => {
    const result = compareTags(a, b);
    expect(result === null ? null : Math.sign(result)).toBe(expected);
  });
});

describe("jumpBetween", () => {
  it.each([
    ["1.27.2", "1.27.3", "patch"],
    ["1.26.2", "1.27.3", "minor"],
    ["16.6", "17.2", "major"],
    ["1.27.3", "1.27.2", null],
    ["1.27.3", "1.27.3", null],
    ["7.2.5-debian-12-r4", "7.4.0-debian-12-r1", "minor"],
    ["7.4.1-debian-12-r0", "7.4.1-debian-12-r2", "patch"],
    ["1.27.3-alpine3.20", "1.27.3-alpine3.21", "patch"],
    ["3.13.0rc2", "3.13.0", "patch"],
    ["10.0.20348.2762", "10.0.20348.2849", "patch"],
    ["2024.10.3", "2024.11.0", "minor"],
    ["2023.12.4", "2024.1.0", "major"],
    ["noble-20241011", "noble-20241015", "patch"],
    ["noble-20241015", "noble-20241105", "minor"],
    ["20231231", "20240101", "major"],
    ["latest", "1.0.0", null],
    ["1.0.0", "latest", null],
    ["2021.12.16", "10.10.7", null],
    ["v2.53.2", "v3.0.1", "major"],
    ["1.27", "1.28.0", "minor"],
  ] as const)("%s → %s is %s", (from, to, expected) => {
    expect(jumpBetween(from, to)).toBe(expected);
  });
});

describe("likeGroupKey", () => {
  it.each([
    ["1.27.3-alpine3.20", "1.27.4-alpine3.21", true],
    ["1.27.3-alpine", "1.27.3-alpine-perl", false],
    ["1.27.3", "v1.27.3", false],
    ["1.27.3", "1.27", false],
    ["2.0.0-beta-alpine", "2.0.0-alpine", true],
    ["8.0.39-debian-12-r4", "8.0.40-debian-12-r0", true],
    ["2024.10.1", "3.10.1", false],
    ["3.13.0rc2-alpine", "3.12.7-alpine", true],
    ["amd64-4.0.11.2680-ls262", "4.0.11.2680-ls262", false],
  ] as const)("%s and %s compete: %s", (a, b, same) => {
    const ka = likeGroupKey(a);
    expect(ka).not.toBeNull();
    expect(ka === likeGroupKey(b)).toBe(same);
  });

  it.each(["latest", "alpine", "stable-alpine", "sha-abc1234", SIG, ""])("%j has no group", (tag) => {
    expect(likeGroupKey(tag)).toBeNull();
  });
});
