import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareTags, likeGroupKey } from "./compare";
import { parseTag } from "./parse";
import { selectNewest } from "./select";

const KINDS = new Set(["version", "date", "flavour", "moving", "hash", "signature", "unknown"]);

/**
 * Parameters shared by every tag of one like group. A word prefix needs two
 * parts: `nanoserver-1809` is a name, not version 1809.
 */
const groupShape = fc
  .record({
    prefix: fc.constantFrom("", "v", "version-"),
    count: fc.integer({ min: 1, max: 5 }),
    flavour: fc.constantFrom("", "alpine", "slim-bookworm", "debian-12", "nanoserver-ltsc2022", "management-alpine"),
    withBase: fc.boolean(),
  })
  .filter((shape) => shape.prefix !== "version-" || shape.count > 1);

function tagInGroup(shape: { prefix: string; count: number; flavour: string; withBase: boolean }) {
  return fc
    .record({
      numbers: fc.array(fc.integer({ min: 0, max: 30 }), { minLength: shape.count, maxLength: shape.count }),
      pre: fc.option(fc.constantFrom("alpha", "beta.1", "rc1", "rc.2", "rc.10", "preview.7", "dev0", "m02"), { nil: undefined }),
      base: fc.tuple(fc.integer({ min: 3, max: 3 }), fc.integer({ min: 10, max: 21 })),
      revision: fc.option(fc.integer({ min: 0, max: 99 }), { nil: undefined }),
    })
    .map(({ numbers, pre, base, revision }) => {
      const words = shape.flavour === "" ? [] : shape.flavour.split("-");
      if (shape.withBase) words[0] = `${words[0] ?? "alpine"}${base.join(".")}`;
      return [
        `${shape.prefix}${numbers.join(".")}`,
        ...(pre === undefined ? [] : [pre]),
        ...words,
        ...(revision === undefined ? [] : [`r${revision}`]),
      ].join("-");
    });
}

const groupOfThree = groupShape.chain((shape) => fc.tuple(tagInGroup(shape), tagInGroup(shape), tagInGroup(shape)));

const sign = (n: number | null) => (n === null ? null : Math.sign(n));

describe("compareTags is a total order within a like group", () => {
  it("puts generated tags of one shape in one group", () => {
    fc.assert(
      fc.property(groupOfThree, ([a, b, c]) => {
        const key = likeGroupKey(a);
        expect(key).not.toBeNull();
        expect(likeGroupKey(b)).toBe(key);
        expect(likeGroupKey(c)).toBe(key);
      }),
    );
  });

  it("is antisymmetric and reflexive, and 0 only for the same tag", () => {
    fc.assert(
      fc.property(groupOfThree, ([a, b]) => {
        expect(sign(compareTags(a, a))).toBe(0);
        expect(sign(compareTags(a, b))).toBe(-(sign(compareTags(b, a)) as number) || 0);
        expect(compareTags(a, b) === 0).toBe(a === b);
      }),
    );
  });

  it("is transitive", () => {
    fc.assert(
      fc.property(groupOfThree, ([a, b, c]) => {
        const ab = compareTags(a, b) as number;
        const bc = compareTags(b, c) as number;
        if (ab <= 0 && bc <= 0) expect(compareTags(a, c)).toBeLessThanOrEqual(0);
        if (ab >= 0 && bc >= 0) expect(compareTags(a, c)).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 500 },
    );
  });

  it("sorts to the same order from any starting order", () => {
    fc.assert(
      fc.property(
        groupShape.chain((shape) => fc.array(tagInGroup(shape), { minLength: 2, maxLength: 12 })),
        fc.integer(),
        (tags, seed) => {
          const byCompare = (x: string, y: string) => compareTags(x, y) as number;
          const shuffled = [...tags].sort((x, y) => ((x.length * 31 + seed) % 7) - ((y.length * 17 + seed) % 5));
          expect([...shuffled].sort(byCompare)).toEqual([...tags].sort(byCompare));
        },
      ),
    );
  });
});

describe("parseTag never throws", () => {
  const check = (input: string) => {
    const parsed = parseTag(input);
    expect(parsed.raw).toBe(input);
    expect(KINDS.has(parsed.kind)).toBe(true);
    for (const n of parsed.numbers) expect(Number.isSafeInteger(n) && n >= 0).toBe(true);
    if (parsed.kind === "version" || parsed.kind === "date") expect(parsed.numbers.length).toBeGreaterThan(0);
    expect(parsed.isPrerelease).toBe(parsed.prerelease !== null);
  };

  it("on arbitrary strings", () => {
    fc.assert(fc.property(fc.string(), check), { numRuns: 2_000 });
  });

  it("on arbitrary unicode, including astral and combining characters", () => {
    fc.assert(fc.property(fc.string({ unit: "binary" }), check), { numRuns: 1_000 });
    fc.assert(fc.property(fc.string({ unit: "grapheme" }), check), { numRuns: 1_000 });
  });

  it("on strings made of tag characters, which reach every branch of the scanner", () => {
    const tagChars = fc.constantFrom(..."0123456789.-_+abcdefrlsvmxyzRCTZ".split(""));
    fc.assert(fc.property(fc.string({ unit: tagChars, maxLength: 40 }), check), { numRuns: 5_000 });
  });

  it("on very long strings", () => {
    fc.assert(fc.property(fc.string({ minLength: 129, maxLength: 200_000 }), check), { numRuns: 20 });
    check("1.".repeat(100_000));
    check(`${"9".repeat(1_000)}.1`);
  });
});

describe("selectNewest", () => {
  it("never throws and only ever names a tag from the list, of the running tag's group", () => {
    const tagChars = fc.constantFrom(..."0123456789.-abelpinrtsv".split(""));
    fc.assert(
      fc.property(fc.string({ unit: tagChars, maxLength: 16 }), fc.array(fc.string({ unit: tagChars, maxLength: 16 })), (running, tags) => {
        const result = selectNewest({ running, tags });
        if (result.newest !== null) expect(tags).toContain(result.newest);
        if (result.jump !== null) expect(likeGroupKey(result.newest as string)).toBe(likeGroupKey(running));
        expect(result.alert).toBe(result.target !== null);
      }),
      { numRuns: 1_000 },
    );
  });
});
