import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/domain/errors";
import { compileTagFilter } from "./filter";
import { tagsFromJson } from "./tags-json";

describe("tagsFromJson", () => {
  it.each([
    [["1.0.0", "latest"], ["1.0.0", "latest"]],
    [[], []],
    [{ name: "library/nginx", tags: ["1.27.3", "alpine"] }, ["1.27.3", "alpine"]],
    [{ name: "library/empty", tags: null }, []],
  ] as const)("reads %j", (value, expected) => {
    expect(tagsFromJson(value)).toEqual(expected);
  });

  it.each([null, 42, "1.0.0", { name: "x" }, { tags: "1.0.0" }, [1, 2], ["1.0.0", null], { tags: [true] }])(
    "rejects %j with invalid_input",
    (value) => {
      expect(() => tagsFromJson(value)).toThrow(AppError);
      try {
        tagsFromJson(value);
      } catch (err) {
        expect((err as AppError).code).toBe("invalid_input");
      }
    },
  );
});

describe("compileTagFilter", () => {
  it("tests tags without anchoring, like RegExp.test", () => {
    const filter = compileTagFilter("\\d+\\.\\d+\\.\\d+-alpine");
    if (!filter.ok) throw new Error(filter.error);
    expect(["1.27.3-alpine", "1.27.3-alpine-perl", "1.27-alpine", "alpine"].map(filter.test)).toEqual([true, true, false, false]);
  });

  it("honours anchors", () => {
    const filter = compileTagFilter("^\\d+\\.\\d+\\.\\d+-alpine$");
    if (!filter.ok) throw new Error(filter.error);
    expect(["1.27.3-alpine", "1.27.3-alpine-perl"].map(filter.test)).toEqual([true, false]);
  });

  it.each([
    ["(", "missing closing )"],
    ["a(?=b)", "invalid or unsupported Perl syntax"],
    ["[z-a]", "invalid character class range"],
    ["", "must not be empty"],
    ["a".repeat(501), "at most 500 characters"],
  ])("rejects %j: %s", (pattern, reason) => {
    const filter = compileTagFilter(pattern);
    expect(filter.ok).toBe(false);
    if (!filter.ok) expect(filter.error).toContain(reason);
  });

  it("stays linear on a pattern that backtracks exponentially elsewhere", () => {
    const filter = compileTagFilter("^(a+)+$");
    if (!filter.ok) throw new Error(filter.error);
    const started = performance.now();
    expect(filter.test(`${"a".repeat(5_000)}!`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
