import { describe, expect, it } from "vitest";
import { exactVersionOf, isLineTag, resolutionCandidates } from "./running-version";
import { IMAGES, type ImageName } from "./versions/testdata/images";

/** A four-part respin published after the three-part release it fixes. */
const RESPINS = ["1.2.2", "1.2.3", "1.2.3.1", "1.2.4"];

describe("isLineTag", () => {
  it.each<[ImageName | "respins", string, boolean]>([
    ["nginx", "1.27", true],
    ["nginx", "1.27.3", false],
    ["redis2026", "7", true],
    ["redis2026", "8-alpine3.23", true],
    ["postgres2026", "17-alpine3.22", true],
    ["node2026", "24-trixie-slim", true],
    ["mariadb2026", "11-ubi9", true],
    ["mariadb2026", "12.3.2", false],
    ["redis2026", "latest", false],
    ["clickhouse", "24.10.2", true],
    // A release with its build (`_7`) and a three-part release that was respun (`17.0.8.1_1`) are exact.
    ["temurin2023", "17.0.8_7-jdk-jammy", false],
    ["temurin", "8u432-b06-jdk-jammy", false],
    ["temurin", "8-jdk-jammy", true],
    ["respins", "1.2.3", false],
    ["respins", "1.2.2", false],
  ])("%s: %s → %s", (image, tag, expected) => {
    expect(isLineTag(tag, image === "respins" ? RESPINS : IMAGES[image].tags)).toBe(expected);
  });
});

describe("resolutionCandidates: newest first, exact versions of the tag's own line only", () => {
  it.each<[ImageName, string, string[]]>([
    ["nginx", "1.27", ["1.27.3", "1.27.2", "1.27.1", "1.27.0"]],
    ["nginx", "1.27.3", []],
    ["redis2026", "7", ["7.4.11", "7.4.10", "7.4.9", "7.4.8", "7.4.7", "7.2.16", "7.2.15", "7.2.14", "7.2.13", "7.2.12"]],
    ["postgres2026", "18", ["18.6", "18.4", "18.3", "18.2"]],
    ["postgres2026", "17-alpine3.22", ["17.11-alpine", "17.10-alpine3.22", "17.10-alpine", "17.9-alpine3.22", "17.9-alpine", "17.8-alpine3.22", "17.8-alpine"]],
    ["mariadb2026", "11-ubi9", ["11.8.8-ubi9", "11.8.7-ubi9", "11.8.6-ubi9", "11.4.12-ubi9", "11.4.11-ubi9", "11.4.10-ubi9"]],
    ["node2026", "24-trixie-slim", ["24.19.0-trixie-slim", "24.18.1-trixie-slim", "24.18.0-trixie-slim"]],
  ])("%s: %s", (image, tag, expected) => {
    expect(resolutionCandidates(tag, IMAGES[image].tags)).toEqual(expected);
  });

  it("stops at twenty, keeping the newest", () => {
    const candidates = resolutionCandidates("8-alpine3.23", IMAGES.redis2026.tags);
    expect(candidates).toHaveLength(20);
    expect(candidates.slice(0, 3)).toEqual(["8.10.1-alpine3.23", "8.10.1-alpine", "8.10.0-alpine3.23"]);
  });
});

describe("exactVersionOf", () => {
  it.each<[string, { tag: string; tagVersion: string | null; resolvedVersion: string | null }, readonly string[] | null, string | null]>([
    ["a digest match wins", { tag: "7", tagVersion: null, resolvedVersion: "7.4.11" }, IMAGES.redis2026.tags, "7.4.11"],
    ["a bare major without a digest match is unknown", { tag: "7", tagVersion: null, resolvedVersion: null }, IMAGES.redis2026.tags, null],
    ["a line tag upstream shows moving is unknown", { tag: "7.4", tagVersion: "7.4", resolvedVersion: null }, IMAGES.redis2026.tags, null],
    ["an exact version is itself", { tag: "7.4.11", tagVersion: "7.4.11", resolvedVersion: null }, IMAGES.redis2026.tags, "7.4.11"],
    ["no upstream data: the tag's own version", { tag: "7.4", tagVersion: "7.4", resolvedVersion: null }, null, "7.4"],
  ])("%s", (_name, run, tags, expected) => {
    expect(exactVersionOf(run, tags)).toBe(expected);
  });
});
