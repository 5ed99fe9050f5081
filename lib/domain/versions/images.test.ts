// Invariants over every tag of every image list: each real tag is understood,
// and selection from it never leaves its line.
import { describe, expect, it } from "vitest";
import { compareParsed, isRespinPair, likeGroupKey } from "./compare";
import { isMovingTag, parseTag } from "./parse";
import { selectNewest } from "./select";
import { IMAGES } from "./testdata/images";

const ROWS = Object.entries(IMAGES).flatMap(([image, { tags }]) => tags.map((tag) => [image, tag, tags] as const));

describe("every tag of every image list", () => {
  it.each(ROWS)("%s: %s", (_image, tag, tags) => {
    const parsed = parseTag(tag);
    expect(parsed.kind).not.toBe("unknown");

    const result = selectNewest({ running: tag, tags });
    expect(result.alert).toBe(result.target !== null);
    if (result.newest !== null) {
      expect(tags).toContain(result.newest);
      expect(["version", "date"]).toContain(parseTag(result.newest).kind);
    }
    if (parsed.kind === "hash" || parsed.kind === "signature") {
      expect(result.newest).toBeNull();
    } else if (isMovingTag(tag) && result.jump === null) {
      expect(result).toMatchObject({ target: null, releases: [] });
    } else if (result.newest !== null) {
      // a version is only ever compared with newer releases of its own line (or its respins')
      const newest = parseTag(result.newest);
      expect(likeGroupKey(result.newest) === likeGroupKey(tag) || isRespinPair(newest, parsed), `${result.newest} in ${tag}'s line`).toBe(true);
      expect(compareParsed(newest, parsed)).toBeGreaterThan(0);
      expect(result.releases.at(-1)).toBe(result.newest);
      expect(parseTag(result.newest).isPrerelease).toBe(false);
    }
  });
});
