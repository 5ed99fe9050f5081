import { describe, expect, it } from "vitest";
import { isoInstant, reportFingerprint, splitImage } from "./report";

describe("isoInstant", () => {
  it.each([
    ["2026-08-01T00:00:00.000Z", "2026-08-01T00:00:00.000Z"],
    ["2024-02-29T23:59:59.999Z", "2024-02-29T23:59:59.999Z"],
    ["2026-08-01T00:00:00Z", "2026-08-01T00:00:00.000Z"],
    ["2026-08-01T02:00:00+02:00", "2026-08-01T00:00:00.000Z"],
    ["2026-08-01T00:00:00.1234567Z", "2026-08-01T00:00:00.123Z"],
    ["2026-08-01T00:00:00.5-01:30", "2026-08-01T01:30:00.500Z"],
    // Days past a month's end roll over, as Date reads them.
    ["2026-02-29T00:00:00.000Z", "2026-03-01T00:00:00.000Z"],
    ["2026-01-01T24:00:00.000Z", "2026-01-02T00:00:00.000Z"],
  ])("%s → %s", (value, expected) => {
    expect(isoInstant(value)).toBe(expected);
  });

  it("agrees with Date on every month's last days, leap years and centuries included", () => {
    for (const year of [1999, 2000, 2024, 2026, 2100])
      for (let month = 1; month <= 12; month++)
        for (const day of [28, 29, 30, 31]) {
          const value = `${year}-${String(month).padStart(2, "0")}-${day}T23:59:59.999Z`;
          expect(isoInstant(value)).toBe(new Date(value).toISOString());
        }
  });

  it("throws on what is no instant", () => {
    expect(() => isoInstant("2026-13-01T00:00:00.000Z")).toThrow(RangeError);
    expect(() => isoInstant("yesterday")).toThrow(RangeError);
  });
});

describe("reportFingerprint", () => {
  const w = (since: string) => ({ service: "web", container: "web", main: true, image: "nginx:1.27.2", digest: null, platform_digest: null, platform: null, since });
  it("is the same for the same instant written in another offset, and differs when it moves", () => {
    const a = reportFingerprint({ environment: "prod", workloads: [w("2026-08-01T02:00:00+02:00")] });
    expect(reportFingerprint({ environment: "prod", workloads: [w("2026-08-01T00:00:00.000Z")] })).toBe(a);
    expect(reportFingerprint({ environment: "prod", workloads: [w("2026-08-01T00:00:01.000Z")] })).not.toBe(a);
  });
});

describe("splitImage", () => {
  it("gives the repository key and tag, the same on a repeated call", () => {
    expect(splitImage("nginx:1.27.2")).toEqual({ repository: "docker.io/library/nginx", tag: "1.27.2" });
    expect(splitImage("nginx:1.27.2")).toEqual({ repository: "docker.io/library/nginx", tag: "1.27.2" });
    expect(splitImage("ghcr.io/org/app@sha256:" + "a".repeat(64))).toEqual({ repository: "ghcr.io/org/app", tag: "" });
    expect(splitImage("ghcr.io/org/app")).toEqual({ repository: "ghcr.io/org/app", tag: "latest" });
  });
});
