import { describe, expect, it } from "vitest";
import type { DriftKind } from "@/lib/domain/policy";
import {
  ackLiftedNow, ackMatches, compareToAckVersion, indexUpstreamTargets, isAckActive, isDriftSilenced, nextAckExpiry, type SilenceDrift,
} from "./acks";
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
    ["until 1.2.0 (plain), 1.3.0-alpine ships: every flavour counts", ack({ untilVersion: "1.2.0" }), ["1.3.0-alpine"], false],
    ["until 1.2.0-alpine, 1.3.0-debian runs: another flavour does not count", ack({ untilVersion: "1.2.0-alpine" }), ["1.3.0-debian"], true],
    ["until 1.2.0, another prefix runs", ack({ untilVersion: "1.2.0" }), ["python-1.3.0"], true],
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
    ["release → env (its move is to the previous environment's version)", { kind: "release" }, "env", "prod", true],
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

describe("compareToAckVersion", () => {
  it.each<[string, string, number | null]>([
    ["1.2.0", "1.2.0", 0],
    ["1.1.9", "1.2.0", -1],
    ["1.2.1", "1.2.0", 1],
    ["1.28.3", "1.28", 0],
    ["1.27.9", "1.28", -1],
    ["1.29.0", "1.28", 1],
    ["1.28", "1.28.0", 0],
    ["v2.3.1", "2.3.1", 0],
    ["2.3.1-alpine", "v2.3.1-alpine", 0],
    ["2.0.0-rc.1", "2.0.0", -1],
    ["2.0.0", "2.0.0-rc.1", 1],
    ["2.0.0-rc.2", "2.0.0-rc.1", 1],
    ["1.3.0-alpine", "1.2.0", 1],
    ["3.2.0-alpine", "3.3.0", -1],
    ["3.3.0-alpine3.21", "3.3.0", 0],
    ["3.3.0-alpine", "3.3.0-debian", null],
    ["3.3.0", "3.3.0-alpine", null],
    ["python-3.3.0", "3.3.0", null],
    ["latest", "1.2.0", null],
  ])("%s against %s → %s", (version, ackVersion, expected) => {
    expect(compareToAckVersion(version, ackVersion)).toBe(expected);
  });
});

describe("which drifts an acknowledgement silences", () => {
  // production runs 4.2.0, staging 4.3.1; upstream's newest release the policy alerts on is 5.0.0.
  const runningVersions = indexRunningVersions([run("staging", "s1", "4.3.1", ago(3)), run("prod", "p1", "4.2.0", ago(20))]);
  const upstream = (environmentId: string, expected: string): SilenceDrift => ({ serviceId: "svc", environmentId, kind: "upstream", expected });
  const env: SilenceDrift = { serviceId: "svc", environmentId: "prod", kind: "env", expected: "4.3.1" };
  const eol: SilenceDrift = { serviceId: "svc", environmentId: "prod", kind: "eol", expected: null };
  const inconsistent: SilenceDrift = { serviceId: "svc", environmentId: "prod", kind: "inconsistent", expected: "4.2.1" };
  const declared: SilenceDrift = { serviceId: "svc", environmentId: "prod", kind: "declared", expected: "4.3.0" };
  const targets = (prod: string, staging = prod) => indexUpstreamTargets([
    { ...upstream("prod", prod), expected: prod }, { ...upstream("staging", staging), expected: staging },
  ]);

  it.each<[string, AckRecord, SilenceDrift, ReturnType<typeof indexUpstreamTargets>, boolean]>([
    // release with until_version: every drift whose move does not go beyond it
    ["release until 4.3.1 silences env drift to staging's 4.3.1", ack({ untilVersion: "4.3.1", environmentId: "prod" }), env, targets("5.0.0"), true],
    ["release until 4.3 silences env drift to 4.3.1 (within the line)", ack({ untilVersion: "4.3", environmentId: "prod" }), env, targets("5.0.0"), true],
    ["release until 4.3.0 does not silence env drift to 4.3.1", ack({ untilVersion: "4.3.0", environmentId: "prod" }), env, targets("5.0.0"), false],
    ["release until 5.0.0 silences env drift to 4.3.1 too", ack({ untilVersion: "5.0.0" }), env, targets("5.0.0"), true],
    ["release until 5.0.0 silences upstream drift to 5.0.0", ack({ untilVersion: "5.0.0" }), upstream("prod", "5.0.0"), targets("5.0.0"), true],
    ["release until 5.0.0 does not silence upstream drift to 5.1.0", ack({ untilVersion: "5.0.0" }), upstream("prod", "5.1.0"), targets("5.1.0"), false],
    ["release until 5.0.0 silences eol drift (its move is the release)", ack({ untilVersion: "5.0.0" }), eol, targets("5.0.0"), true],
    ["release until 5.0.0 (plain) silences upstream drift to 5.0.0-alpine", ack({ untilVersion: "5.0.0" }), upstream("prod", "5.0.0-alpine"), targets("5.0.0-alpine"), true],
    ["release until 5.0.0 (plain) does not silence upstream drift to 5.1.0-alpine", ack({ untilVersion: "5.0.0" }), upstream("prod", "5.1.0-alpine"), targets("5.1.0-alpine"), false],
    ["release until 5.0.0-debian does not silence upstream drift to 4.9.0-alpine", ack({ untilVersion: "5.0.0-debian" }), upstream("prod", "4.9.0-alpine"), targets("4.9.0-alpine"), false],
    ["skip 5.0.0 (plain) while 5.0.0-alpine is the newest target: silent", ack({ skipVersion: "5.0.0" }), upstream("prod", "5.0.0-alpine"), targets("5.0.0-alpine"), true],
    ["skip 5.0.0 (plain), then 5.0.1-alpine arrives: speaks again", ack({ skipVersion: "5.0.0" }), upstream("prod", "5.0.1-alpine"), targets("5.0.1-alpine"), false],
    ["release never silences inconsistent drift", ack({ untilVersion: "5.0.0" }), inconsistent, targets("5.0.0"), false],
    ["release never silences declared drift", ack({ untilVersion: "5.0.0" }), declared, targets("5.0.0"), false],
    ["release in staging does not reach production", ack({ untilVersion: "5.0.0", environmentId: "staging" }), env, targets("5.0.0"), false],
    ["release for a duration only silences every release move", ack({ expiresAt: ago(0, -60) }), upstream("prod", "6.0.0"), targets("6.0.0"), true],
    // skip_version: while no newer release the policy alerts on is out
    ["skip 5.0.0 while 5.0.0 is the newest target: upstream silent", ack({ skipVersion: "5.0.0" }), upstream("prod", "5.0.0"), targets("5.0.0"), true],
    ["skip 5.0.0 while 5.0.0 is the newest target: env drift silent", ack({ skipVersion: "5.0.0" }), env, targets("5.0.0"), true],
    ["skip 5.0.0 while 5.0.0 is the newest target: eol silent", ack({ skipVersion: "5.0.0" }), eol, targets("5.0.0"), true],
    ["skip 5.0.0, then 5.0.1 arrives: upstream speaks again", ack({ skipVersion: "5.0.0" }), upstream("prod", "5.0.1"), targets("5.0.1"), false],
    ["skip 5.0.0, then 5.0.1 arrives: env drift speaks again", ack({ skipVersion: "5.0.0" }), env, targets("5.0.1"), false],
    ["skip 5.0.0, 5.0.1 out only for staging's line", ack({ skipVersion: "5.0.0" }), env, targets("5.0.0", "5.0.1"), true],
    ["skip 5.0.0 with nothing the policy alerts on", ack({ skipVersion: "5.0.0" }), env, new Map(), true],
    ["skip 5.0.0 without targets falls back to the upstream drift's own move", ack({ skipVersion: "5.0.0" }), upstream("prod", "5.1.0"), new Map(), false],
    ["skip 5.0.0 expired", ack({ skipVersion: "5.0.0", expiresAt: ago(0, 1) }), upstream("prod", "5.0.0"), targets("5.0.0"), false],
    // drift: every kind, for its duration
    ["drift ack silences env", ack({ kind: "drift", expiresAt: ago(0, -60) }), env, targets("5.0.0"), true],
    ["drift ack silences upstream to any version", ack({ kind: "drift", expiresAt: ago(0, -60) }), upstream("prod", "9.0.0"), targets("9.0.0"), true],
    ["drift ack silences inconsistent", ack({ kind: "drift", expiresAt: ago(0, -60) }), inconsistent, targets("5.0.0"), true],
    ["drift ack silences declared", ack({ kind: "drift", expiresAt: ago(0, -60) }), declared, targets("5.0.0"), true],
    ["drift ack expired a minute ago", ack({ kind: "drift", expiresAt: ago(0, 1) }), env, targets("5.0.0"), false],
    // expiry and shipping end a release acknowledgement
    ["release until 4.2.0: already runs in production, lifted", ack({ untilVersion: "4.2.0", environmentId: "prod" }), env, targets("5.0.0"), false],
    ["release until 5.0.0 or an hour ago, whichever first", ack({ untilVersion: "5.0.0", expiresAt: ago(0, 60) }), env, targets("5.0.0"), false],
  ])("%s", (_name, a, drift, upstreamTargets, silenced) => {
    expect(isDriftSilenced(drift, { acks: [a], runningVersions, now: NOW, upstreamTargets })).toBe(silenced);
  });

  it("indexUpstreamTargets keeps live upstream drift only", () => {
    const index = indexUpstreamTargets([
      { serviceId: "svc", environmentId: "prod", kind: "upstream", expected: "5.0.0", state: "announced" },
      { serviceId: "svc", environmentId: "staging", kind: "upstream", expected: "5.0.0", state: "resolved" },
      { serviceId: "svc", environmentId: "dev", kind: "env", expected: "4.3.1" },
    ]);
    expect(index).toEqual(new Map([["svc", new Map([["prod", "5.0.0"]])]]));
  });
});
