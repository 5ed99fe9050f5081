import { describe, expect, it } from "vitest";
import { cycleShapeOf, releaseCycle } from "./cycle";

describe("releaseCycle", () => {
  it.each([
    ["17.2", "major", "17"],
    ["1.27.3", "major.minor", "1.27"],
    ["17.2-bookworm", "major", "17"],
    ["v3.2.1", "major.minor", "3.2"],
    ["24.04", "major.minor", "24.04"],
    ["3.13.0rc2-alpine", "major.minor", "3.13"],
    ["8.0.39-debian-12-r4", "major.minor", "8.0"],
    ["7", "major.minor", null],
    ["7", "major", "7"],
    ["latest", "major", null],
    ["alpine", "major.minor", null],
    ["2024.10.1", "major.minor", "2024.10"],
    ["10.0.20348.2849", "major.minor", "10.0"],
    ["sha-abc1234", "major", null],
    ["version-4.0.11.2680", "major.minor", "4.0"],
    ["17rc1", "major", "17"],
    ["16-alpine3.20", "major", "16"],
    ["22.11.0-alpine3.20", "major", "22"],
  ] as const)("%s by %s → %s", (version, by, expected) => {
    expect(releaseCycle(version, by)).toBe(expected);
  });
});

describe("cycleShapeOf", () => {
  it.each([
    [["17", "16", "15", "9.6", "9.5"], "major"],
    [["1.27", "1.26"], "major.minor"],
    [["3.13", "3.12", "2.7"], "major.minor"],
    [["8.0", "7.0", "6.0"], "major.minor"],
    [["23", "22", "20"], "major"],
    [[], "major"],
    [["24.10", "24.04"], "major.minor"],
    [["4.0", "3.13"], "major.minor"],
    [["v1.31", "v1.30"], "major.minor"],
    [["8", "7", "6"], "major"],
  ] as const)("%j → %s", (names, expected) => {
    expect(cycleShapeOf(names)).toBe(expected);
  });
});
