import { describe, expect, it } from "vitest";
import type { DriftKind } from "@/lib/domain/policy";
import { ackLiftedNow, ackMatches, isAckActive, isDriftSilenced, nextAckExpiry } from "./acks";
import { indexRunningVersions } from "./runs";
import { ago, NOW, run } from "./test-support";
import type { AckRecord } from "./types";

const ack = (over: Partial<AckRecord> = {}): AckRecord => ({
  id: "a1", serviceId: "svc", environmentId: null, kind: "release", untilVersion: null, expiresAt: null, liftedAt: null,
  createdAt: ago(5), ...over,
});

describe("isAckActive", () => {
  it.each<[string, AckRecord, string[], boolean]>([
    ["no end at all", ack({ kind: "drift" }), [], true],
    ["expires in an hour", ack({ expiresAt: ago(0, -60) }), [], true],
    ["expired by time a minute ago", ack({ expiresAt: ago(0, 1) }), [], false],
    ["expires exactly now", ack({ expiresAt: NOW }), [], false],
    ["until 1.2.0, 1.1.9 runs", ack({ untilVersion: "1.2.0" }), ["1.1.9"], true],
    ["until 1.2.0, 1.2.0 ships", ack({ untilVersion: "1.2.0" }), ["1.1.9", "1.2.0"], false],
    ["until 1.2.0, 2.0.1 ships", ack({ untilVersion: "1.2.0" }), ["2.0.1"], false],
    ["until 1.2.0, an incomparable flavour runs", ack({ untilVersion: "1.2.0" }), ["1.3.0-alpine"], true],
    ["until 1.2.0 but expired first", ack({ untilVersion: "1.2.0", expiresAt: ago(1) }), ["1.0.0"], false],
    ["lifted earlier", ack({ liftedAt: ago(2) }), [], false],
  ])("%s", (_name, a, runningVersionsInScope, expected) => {
    expect(isAckActive(a, { now: NOW, runningVersionsInScope })).toBe(expected);
  });
});

describe("ackMatches", () => {
  it.each<[string, Partial<AckRecord>, DriftKind, string, boolean]>([
    ["release → upstream", { kind: "release" }, "upstream", "prod", true],
    ["release → eol", { kind: "release" }, "eol", "prod", true],
    ["release ↛ env", { kind: "release" }, "env", "prod", false],
    ["release ↛ inconsistent", { kind: "release" }, "inconsistent", "prod", false],
    ["release ↛ declared", { kind: "release" }, "declared", "prod", false],
    ["drift → env", { kind: "drift" }, "env", "prod", true],
    ["drift → declared", { kind: "drift" }, "declared", "prod", true],
    ["scoped to prod → prod", { kind: "drift", environmentId: "prod" }, "env", "prod", true],
    ["scoped to prod ↛ staging", { kind: "drift", environmentId: "prod" }, "env", "staging", false],
    ["another service", { kind: "drift", serviceId: "api" }, "env", "prod", false],
  ])("%s", (_name, over, kind, environmentId, expected) => {
    expect(ackMatches(ack(over), { serviceId: "svc", environmentId, kind })).toBe(expected);
  });
});

describe("scope of until_version", () => {
  // 1.2.0 ships in staging; production still runs 1.1.0.
  const runningVersions = indexRunningVersions([run("staging", "s1", "1.2.0", ago(1)), run("prod", "p1", "1.1.0", ago(30))]);
  const drift = { serviceId: "svc", environmentId: "prod", kind: "upstream" as const };

  it.each<[string, AckRecord, boolean, { id: string; liftedAt: Date }[]]>([
    ["every environment: lifted by staging", ack({ untilVersion: "1.2.0" }), false, [{ id: "a1", liftedAt: NOW }]],
    ["production only: still silent", ack({ untilVersion: "1.2.0", environmentId: "prod" }), true, []],
    ["staging only: lifted", ack({ untilVersion: "1.2.0", environmentId: "staging" }), false, [{ id: "a1", liftedAt: NOW }]],
    ["expired by time: not marked lifted", ack({ untilVersion: "1.2.0", expiresAt: ago(1) }), false, []],
    ["already lifted: not again", ack({ untilVersion: "1.2.0", liftedAt: ago(1) }), false, []],
    ["no until_version: nothing to lift", ack({ kind: "drift" }), true, []],
  ])("%s", (_name, a, silenced, lifted) => {
    expect(isDriftSilenced(drift, { acks: [a], runningVersions, now: NOW })).toBe(silenced);
    expect(ackLiftedNow({ acks: [a], runningVersions, now: NOW })).toEqual(lifted);
  });
});

describe("nextAckExpiry", () => {
  it("is the earliest expiry still ahead, ignoring acks without one and those already past", () => {
    expect(nextAckExpiry([], NOW)).toBeNull();
    expect(nextAckExpiry([ack(), ack({ expiresAt: ago(0, 5) }), ack({ expiresAt: NOW })], NOW)).toBeNull();
    expect(nextAckExpiry([ack({ expiresAt: ago(0, -60) }), ack(), ack({ expiresAt: ago(0, -5) }), ack({ expiresAt: ago(0, 1) })], NOW)).toEqual(ago(0, -5));
  });
});
