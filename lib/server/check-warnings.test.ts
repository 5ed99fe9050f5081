import { describe, expect, it } from "vitest";
import { HostWarnings } from "@/lib/domain/upstream";
import type { CheckOutcome } from "@/lib/services/upstream/check-repository";
import { checkWarningLines } from "./check-warnings";

const T = new Date("2026-11-28T08:00:00Z");
const UNTIL = new Date("2026-11-28T14:00:00.001Z");
const ok = (host: string, quota?: { digests: number; fresh: boolean; refused?: boolean }): CheckOutcome => ({
  status: "ok", host, changed: false, tags: 3, resolved: 0, durationMs: 5,
  ...(quota ? { quotaWait: { host, name: "Docker Hub", digests: quota.digests, until: UNTIL, refused: quota.refused ?? false, fresh: quota.fresh } } : {}),
});

describe("pull quota warnings", () => {
  it("one line per host for lookups held back, however many tags, and none again within the hour", () => {
    const warnings = new HostWarnings();
    const outcomes = [ok("docker.io", { digests: 2, fresh: true }), ok("docker.io", { digests: 1, fresh: true }), ok("docker.io", { digests: 1, fresh: false }), ok("ghcr.io")];
    expect(checkWarningLines(outcomes, warnings, T)).toEqual([
      "Docker Hub pull quota: 3 moving-tag lookups in 2 repositories held back, no pull to spare in the pull budget (the reserve is kept for your own pulls); tried again from 2026-11-28T14:00:00.001Z. Signing in (DRIFTWATCH_DOCKERHUB_USERNAME/TOKEN) or a mirror (DRIFTWATCH_DOCKERHUB_MIRROR) raises the quota.",
    ]);
    expect(checkWarningLines(outcomes, warnings, new Date(T.getTime() + 10 * 60_000))).toEqual([]);
  });

  it("says when the host answered 429, for lookups or for a label read", () => {
    expect(checkWarningLines([ok("docker.io", { digests: 1, fresh: true, refused: true })], new HostWarnings(), T)[0]).toMatch(/docker\.io answered 429 Too Many Requests/);
    expect(checkWarningLines([], new HostWarnings(), T, [{ host: "docker.io", name: "Docker Hub", until: UNTIL }])).toEqual([
      "Docker Hub pull quota: docker.io answered 429 Too Many Requests to a source-label read; pulls wait until 2026-11-28T14:00:00.001Z.",
    ]);
  });

  it("lookups still waiting from an earlier check are not news", () => {
    expect(checkWarningLines([ok("docker.io", { digests: 3, fresh: false })], new HostWarnings(), T)).toEqual([]);
  });
});
