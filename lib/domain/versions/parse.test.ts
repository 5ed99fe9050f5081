import { describe, expect, it } from "vitest";
import { isMovingTag, isVersionTag, parseTag } from "./parse";
import { expectedParse, PARSE_CASES } from "./testdata/parse-cases";

describe("parseTag", () => {
  it.each(PARSE_CASES)("%s %j → %s", (_image, tag, kind, expected) => {
    expect(parseTag(tag)).toEqual(expectedParse(tag, kind, expected));
  });
});

describe("isVersionTag", () => {
  it.each([
    ["1.27.3", true],
    ["17", true],
    ["2024.10.1", true],
    ["20241105", true],
    ["noble-20241015", true],
    ["latest", false],
    ["alpine", false],
    ["sha-abc1234", false],
    [`sha256-${"a1".repeat(32)}.sig`, false],
    ["mimolette", false],
    ["windowsservercore-1809", false],
  ] as const)("%s → %s", (tag, expected) => {
    expect(isVersionTag(tag)).toBe(expected);
  });
});

describe("isMovingTag", () => {
  it.each([
    ["latest", true],
    ["stable", true],
    ["edge", true],
    ["mainline", true],
    ["stable-alpine", true],
    ["alpine", true],
    ["bookworm", true],
    ["mimolette", true],
    ["7", true],
    ["v3", true],
    ["16-alpine3.20", true],
    ["1.27", false],
    ["1.27.3", false],
    ["17rc1", false],
    ["sha-abc1234", false],
    [`sha256-${"a1".repeat(32)}.att`, false],
    ["", false],
  ] as const)("%s → %s", (tag, expected) => {
    expect(isMovingTag(tag)).toBe(expected);
  });
});
