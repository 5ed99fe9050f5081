import { describe, expect, it } from "vitest";
import { isoInstant, reportFingerprint, splitImage } from "./record-agent-report";

describe("isoInstant", () => {
  it("writes any accepted timestamp as Date#toISOString does", () => {
    const samples = [
      "2026-08-01T00:00:00.000Z", "2024-02-29T23:59:59.999Z", "2026-12-31T23:59:59.000Z", "1999-01-01T00:00:00.000Z",
      "2026-08-01T00:00:00Z", "2026-08-01T02:00:00+02:00", "2026-08-01T00:00:00.1234567Z", "2026-08-01T00:00:00.5-01:30",
      // Not valid dates: never returned as they are.
      "2026-02-29T00:00:00.000Z", "2026-04-31T00:00:00.000Z", "2026-01-01T24:00:00.000Z", "2026-13-01T00:00:00.000Z",
    ];
    for (let i = 0; i < 2000; i++) samples.push(new Date(Date.UTC(1990, 0, 1) + Math.floor(Math.random() * 60 * 365 * 86_400_000)).toISOString());
    for (const s of samples) {
      if (Number.isNaN(Date.parse(s))) expect(() => isoInstant(s), s).toThrow(RangeError);
      else expect(isoInstant(s), s).toBe(new Date(s).toISOString());
    }
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
