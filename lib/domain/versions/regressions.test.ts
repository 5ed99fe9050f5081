// Where the tools users pick instead go wrong: each
// failure reported against Renovate, What's Up Docker, Cup, version-checker
// and Diun, as a case this engine gets right.
import { describe, expect, it } from "vitest";
import { compareTags, jumpBetween } from "./compare";
import { movingTagCandidates } from "./moving";
import { isMovingTag } from "./parse";
import { selectNewest } from "./select";
import { IMAGES } from "./testdata/images";

describe("Renovate", () => {
  it("does not propose 1.15-alpine-perl for 1.12-alpine: a different flavour is another line", () => {
    const result = selectNewest({ running: "1.12-alpine", tags: IMAGES.nginx2019.tags });
    expect(result.newest).toBe("1.15-alpine");
    expect(result.releases).not.toContain("1.15-alpine-perl");
    expect(compareTags("1.12-alpine", "1.15-alpine-perl")).toBeNull();
  });

  it("does not propose the older beta 3.8.0b1-alpine3.10", () => {
    const tags = ["3.7.4-alpine3.10", "3.8.0b1-alpine3.10", "3.8.0-alpine3.10"];
    expect(selectNewest({ running: "3.8.0-alpine3.10", tags }).newest).toBeNull();
    expect(selectNewest({ running: "3.8.0-alpine3.10", tags, policy: { prerelease: true } }).newest).toBeNull();
    expect(selectNewest({ running: "3.7.4-alpine3.10", tags }).newest).toBe("3.8.0-alpine3.10");
    expect(selectNewest({ running: "3.7.4-alpine3.10", tags: ["3.7.4-alpine3.10", "3.8.0b1-alpine3.10"] }).newest).toBeNull();
    expect(compareTags("3.8.0b1-alpine3.10", "3.8.0-alpine3.10")).toBeLessThan(0);
  });

  it("orders Bitnami revisions: -r4 < -r39 within one version", () => {
    expect(compareTags("8.0.39-debian-12-r4", "8.0.39-debian-12-r39")).toBeLessThan(0);
    const result = selectNewest({ running: "8.0.39-debian-12-r4", tags: IMAGES.bitnamiMysql.tags, policy: { tag_filter: "^8\\.0\\.39-" } });
    expect(result).toMatchObject({ newest: "8.0.39-debian-12-r39", jump: "patch", target: "8.0.39-debian-12-r39" });
  });

  it("reads a version inside the suffix (-alpine3.14) without splitting the flavour line", () => {
    const tags = ["3.12.1-alpine3.14", "3.12.2-alpine3.14", "3.12.2-alpine3.15", "3.12.2-alpine", "3.12.2-slim"];
    const result = selectNewest({ running: "3.12.1-alpine3.14", tags });
    expect(result).toMatchObject({ newest: "3.12.2-alpine3.15", jump: "patch" });
    expect(result.releases).toEqual(["3.12.2-alpine3.14", "3.12.2-alpine3.15"]);
  });
});

describe("What's Up Docker", () => {
  it("does not report 7 → 7.0.14 as an upgrade: 7 is a moving tag, resolved by digest", () => {
    const tags = ["7", "7.0", "7.0.14", "7.0.13", "7.0.12", "7.0.14-jammy", "6.0.19", "latest"];
    expect(isMovingTag("7")).toBe(true);
    const result = selectNewest({ running: "7", tags });
    expect(result).toMatchObject({ jump: null, target: null, alert: false, releases: [] });
    expect(movingTagCandidates("7", tags)[0]).toBe("7.0.14");
    expect(movingTagCandidates("7", tags)).toEqual(["7.0.14", "7.0.13", "7.0.12"]);
  });

  it("does not compare date tags with 3.x tags", () => {
    const tags = ["3.2.1", "3.2.2", "2025.01.15", "2024.12.30"];
    expect(selectNewest({ running: "3.2.1", tags }).newest).toBe("3.2.2");
    expect(selectNewest({ running: "2024.12.30", tags }).newest).toBe("2025.01.15");
    expect(compareTags("2025.01.15", "3.2.2")).toBeNull();
    expect(jumpBetween("3.2.2", "2025.01.15")).toBeNull();
  });

  it("handles more than three numeric parts without a hand-written transform", () => {
    expect(selectNewest({ running: "4.0.10.2544-ls260", tags: IMAGES.linuxserverSonarr.tags }).newest).toBe("4.0.11.2680-ls262");
    expect(selectNewest({ running: "10.0.20348.2762", tags: IMAGES.servercore.tags }).newest).toBe("10.0.20348.2849");
    expect(compareTags("1.2.3.10", "1.2.3.9")).toBeGreaterThan(0);
  });
});

describe("Cup", () => {
  it("never ranks 2021.12.16 above 10.10.7", () => {
    expect(compareTags("2021.12.16", "10.10.7")).toBeNull();
    expect(selectNewest({ running: "10.10.7", tags: ["10.10.7", "2021.12.16", "10.10.6"] }).newest).toBeNull();
    expect(selectNewest({ running: "10.10.6", tags: ["10.10.7", "2021.12.16", "10.10.6"] }).newest).toBe("10.10.7");
  });
});

describe("version-checker", () => {
  it("compares the version before the suffix: 7.4.0-debian-12-r1 is above 7.2.5-debian-12-r4", () => {
    expect(compareTags("7.4.0-debian-12-r1", "7.2.5-debian-12-r4")).toBeGreaterThan(0);
    const result = selectNewest({ running: "7.2.5-debian-12-r4", tags: ["7.2.5-debian-12-r4", "7.4.0-debian-12-r1"] });
    expect(result).toMatchObject({ newest: "7.4.0-debian-12-r1", jump: "minor" });
  });
});

describe("Diun", () => {
  it("does not treat every new tag as an update: new tags of other lines are not newest", () => {
    const tags = [
      "1.27.3-alpine", "1.27.2-alpine", "1.26.3-alpine", "1.27.4-perl", "1.28.0-otel", "1.28.0-alpine3.21",
      "sha-1f2e3d4", `sha256-${"e5".repeat(32)}.sig`, "mainline-alpine", "1.28-alpine", "1.28.0rc1-alpine",
    ];
    expect(selectNewest({ running: "1.27.3-alpine", tags })).toEqual({
      running: "1.27.3-alpine", newest: null, jump: null, target: null, alert: false, releases: [],
    });
  });
});

describe("bare-major tags", () => {
  it("compares a running 7 with the other bare majors: 8 is a major jump, 7.0.15 is not newer", () => {
    expect(selectNewest({ running: "7", tags: ["7", "8", "7.0.15"] })).toEqual({
      running: "7", newest: "8", jump: "major", target: "8", alert: true, releases: ["8"],
    });
  });

  it("keeps the flavour: 20-alpine is compared with 22-alpine, not 22 or 22-bookworm", () => {
    const tags = ["20", "20-alpine", "20.18.1-alpine", "22", "22-bookworm", "22-alpine", "22.11.0-alpine"];
    expect(selectNewest({ running: "20-alpine", tags })).toMatchObject({ newest: "22-alpine", jump: "major", target: "22-alpine" });
  });

  it("has nothing newer when no newer bare major is out, whatever longer versions exist", () => {
    expect(selectNewest({ running: "7", tags: ["7", "7.0.15", "7.4.1"] })).toMatchObject({ newest: null, jump: null, target: null, alert: false });
  });

  it("is still resolved by digest: its candidates are the exact versions of its line", () => {
    expect(movingTagCandidates("7", ["7", "8", "7.0.15", "7.4.1", "8.0.0"])).toEqual(["7.4.1", "7.0.15"]);
  });
});
