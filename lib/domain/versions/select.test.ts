import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/domain/errors";
import { selectNewest } from "./select";
import { IMAGES } from "./testdata/images";
import { NEWEST_CASES } from "./testdata/newest-cases";

describe("selectNewest over real tag lists", () => {
  it.each(NEWEST_CASES)("%s: %s %j → %s", (image, running, policy, newest, jump, target) => {
    const result = selectNewest({ running, tags: IMAGES[image].tags, policy });
    expect({ newest: result.newest, jump: result.jump, target: result.target, alert: result.alert }).toEqual({
      newest,
      jump,
      target,
      alert: target !== null,
    });
  });
});

describe("selectNewest result", () => {
  it("prints exactly the tags newest shape, plus the releases in between", () => {
    const result = selectNewest({ running: "11.2.3", tags: IMAGES.grafana.tags });
    expect(result).toEqual({
      running: "11.2.3",
      newest: "11.3.1",
      jump: "minor",
      target: "11.3.1",
      alert: true,
      releases: ["11.2.3-security-01", "11.2.4", "11.3.0", "11.3.0-security-01", "11.3.1"],
    });
  });

  it("lists Bitnami rebuilds in order, the version before the revision", () => {
    const result = selectNewest({ running: "8.0.39-debian-12-r5", tags: IMAGES.bitnamiMysql.tags, policy: { pin_major: 8 } });
    expect(result.releases).toEqual([
      "8.0.39-debian-12-r39", "8.0.40-debian-12-r0", "8.0.40-debian-12-r3", "8.4.2-debian-12-r7",
      "8.4.3-debian-12-r1", "8.4.3-debian-12-r4", "9.1.0-debian-12-r0", "9.1.0-debian-12-r2", "9.1.0-debian-12-r3",
    ]);
    expect(result.target).toBe("8.4.3-debian-12-r4");
  });

  it("gives moving tags no releases, jump or target", () => {
    expect(selectNewest({ running: "latest", tags: IMAGES.nginx.tags })).toEqual({
      running: "latest", newest: "1.27.3", jump: null, target: null, alert: false, releases: [],
    });
  });

  it("ignores duplicate tags in the input", () => {
    const result = selectNewest({ running: "1.0.0", tags: ["1.0.1", "1.0.1", "1.0.0", "1.0.1"] });
    expect(result.releases).toEqual(["1.0.1"]);
  });

  it("answers null for a running tag that is not a version, name or flavour", () => {
    expect(selectNewest({ running: "", tags: ["1.0.0"] }).newest).toBeNull();
  });

  it("answers null when no tags are given", () => {
    expect(selectNewest({ running: "1.0.0", tags: [] })).toEqual({
      running: "1.0.0", newest: null, jump: null, target: null, alert: false, releases: [],
    });
  });

  it("treats a bare number as a version when the repository never uses longer ones", () => {
    const result = selectNewest({ running: "41", tags: ["40", "41", "42", "latest"] });
    expect(result).toMatchObject({ newest: "42", jump: "major", target: "42" });
  });

  it("compares a moving tag against tag_filter matches, its own flavour line first", () => {
    const tags = IMAGES.nginx.tags;
    expect(selectNewest({ running: "latest", tags, policy: { tag_filter: "^1\\.26\\." } }).newest).toBe("1.26.2");
    expect(selectNewest({ running: "latest", tags, policy: { tag_filter: "^1\\.26\\.\\d+-perl$" } }).newest).toBe("1.26.2-perl");
  });
});

describe("selectNewest tag_filter errors", () => {
  it.each(["(", "a(?=b)", "[z-a]", "x{2,1}", "\\"])("rejects %j with invalid_input", (pattern) => {
    const call = () => selectNewest({ running: "1.0.0", tags: ["1.0.1"], policy: { tag_filter: pattern } });
    expect(call).toThrow(AppError);
    try {
      call();
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      const appError = err as AppError;
      expect(appError.code).toBe("invalid_input");
      expect(appError.message).toMatch(/^tag_filter is not a valid RE2 regular expression: /);
      expect(appError.message).not.toContain("\n");
      expect(appError.errors).toEqual([{ pointer: "/tag_filter", detail: appError.message }]);
    }
  });
});
