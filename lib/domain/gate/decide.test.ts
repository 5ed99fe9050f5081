import { describe, expect, it } from "vitest";
import { decideGate, soakedMs, type GateEol, type GateQuestion, type GateRun } from "./decide";
import { versionOfImage } from "./image-version";
import { DEFAULT_GATE, gateSettingsOf, gateSettingsOut, type GateSettings } from "./settings";

const at = (s: string) => new Date(`2026-11-${s}Z`);
const H = 3_600_000;
const NOW = at("20T12:00:00");
const enforce = (over: Partial<GateSettings> = {}): GateSettings => ({ ...DEFAULT_GATE, mode: "enforce", soakMs: 24 * H, ...over });
const run = (environment: string, version: string | null, from: string, to: string | null = null): GateRun => ({ environment, version, from: at(from), to: to === null ? null : at(to) });

// staging → production. 2.4.0 ran three days in staging on two targets; 3.0.0 arrived 3 h ago;
// 2.3.0 ran in production before 2.4.0 did.
const HISTORY: GateRun[] = [
  run("staging", "2.4.0", "17T12:00:00", "19T12:00:00"),
  run("staging", "2.4.0", "18T12:00:00", "20T09:00:00"), // a second target, overlapping the first for a day
  run("staging", "3.0.0", "20T09:00:00"),
  run("production", "2.3.0", "01T00:00:00", "10T00:00:00"),
  run("production", "2.4.0", "10T00:00:00"),
  run("qa", "9.0.0", "01T00:00:00"), // another environment's runs never count
];

const ask = (over: Partial<GateQuestion>): GateQuestion => ({
  settings: enforce(), environment: "production", previous: "staging", isKnownService: true, version: "3.0.0", asked: "3.0.0",
  runs: HISTORY, eol: null, now: NOW, ...over,
});
const passedEol: GateEol = { product: "nginx", cycle: "1.25", eolDate: "2026-05-01", passed: true };

describe("decideGate", () => {
  it.each<[string, Partial<GateQuestion>, boolean, [string, string][]]>([
    ["the first environment needs nothing", { environment: "staging", previous: null, version: "4.0.0" }, true, []],
    ["soak met: ran 2 days 21 h in staging, overlaps once", { settings: enforce({ soakMs: 48 * H }), version: "2.4.0", environment: "production", runs: HISTORY.filter((r) => r.environment !== "production") }, true, []],
    ["soak not met: 21 h left", { version: "3.0.0" }, false, [["soak_not_met", "21 hours of soak left in staging (3.0.0 ran 3 hours of 1 day)."]]],
    ["soak 0s: having run at all is enough", { settings: enforce({ soakMs: 0 }), version: "3.0.0" }, true, []],
    ["never ran in the previous environment", { version: "3.1.0" }, false, [["not_in_previous_environment", "3.1.0 has not run in staging."]]],
    ["ran only in another environment", { version: "9.0.0" }, false, [["not_in_previous_environment", "9.0.0 has not run in staging."]]],
    ["rollback: 2.3.0 ran in production before", { version: "2.3.0" }, true, []],
    ["rollback is allowed even past end of life", { version: "2.3.0", eol: passedEol }, true, []],
    ["end of life passed", { settings: enforce({ soakMs: 0 }), version: "3.0.0", eol: passedEol }, false, [["eol_passed", "nginx 1.25 reached its end of life on 2026-05-01."]]],
    ["end of life passed, refuse_eol off", { settings: enforce({ soakMs: 0, refuseEol: false }), version: "3.0.0", eol: passedEol }, true, []],
    ["end of life not passed", { settings: enforce({ soakMs: 0 }), version: "3.0.0", eol: { ...passedEol, passed: false } }, true, []],
    ["first environment still refuses end of life", { environment: "staging", previous: null, version: "4.0.0", eol: passedEol }, false, [["eol_passed", "nginx 1.25 reached its end of life on 2026-05-01."]]],
    ["several reasons at once", { version: "3.1.0", eol: passedEol }, false, [["not_in_previous_environment", "3.1.0 has not run in staging."], ["eol_passed", "nginx 1.25 reached its end of life on 2026-05-01."]]],
    ["unknown service, allowed", { isKnownService: false, runs: [] }, true, []],
    ["unknown service, refused", { settings: enforce({ unknown: "refuse" }), isKnownService: false, runs: [] }, false, [["unknown_service", "Driftwatch has never seen this service run anywhere."]]],
    ["unknown version, allowed", { version: null, asked: "app:latest" }, true, []],
    ["unknown version, refused", { settings: enforce({ unknown: "refuse" }), version: null, asked: "app:latest" }, false, [["unknown_version", "The exact version of app:latest is not known (a moving tag whose digest has not been resolved)."]]],
    ["another tag of the same release ran: the refusal names it", { version: "3.0.0", runs: [run("staging", "3.0.0-alpine", "17T00:00:00"), run("staging", "v3.0.0", "18T00:00:00")] }, false, [["not_in_previous_environment", "3.0.0 has not run in staging. v3.0.0, 3.0.0-alpine have."]]],
    ["the flavour asked for did not run, the plain tag did", { version: "3.0.0-alpine" }, false, [["not_in_previous_environment", "3.0.0-alpine has not run in staging. 3.0.0 has."]]],
    ["a shorter or a pre-release tag is not the same release", { version: "3.0", runs: [run("staging", "3.0.0", "17T00:00:00"), run("staging", "3.0-rc.1", "17T00:00:00")] }, false, [["not_in_previous_environment", "3.0 has not run in staging."]]],
    ["a run that starts later does not count yet", { settings: enforce({ soakMs: 0 }), runs: [run("staging", "3.0.0", "21T00:00:00")] }, false, [["not_in_previous_environment", "3.0.0 has not run in staging."]]],
  ])("%s", (_, over, allowed, reasons) => {
    const d = decideGate(ask(over));
    expect({ allowed: d.allowed, reasons: d.reasons.map((r) => [r.code, r.detail]) }).toEqual({ allowed, reasons });
  });

  it("audit mode allows and keeps the reasons", () => {
    expect(decideGate(ask({ settings: enforce({ mode: "audit" }), version: "3.1.0" }))).toEqual({
      allowed: true, mode: "audit", version: "3.1.0", reasons: [{ code: "not_in_previous_environment", detail: "3.1.0 has not run in staging." }],
    });
  });

  it("off allows everything and says nothing", () => {
    expect(decideGate(ask({ settings: enforce({ mode: "off", unknown: "refuse" }), version: "3.1.0", isKnownService: false }))).toEqual({ allowed: true, mode: "off", version: "3.1.0", reasons: [] });
  });
});

describe("soakedMs", () => {
  it.each<[string, [string, string | null][], number]>([
    ["nothing", [], 0],
    ["one closed run", [["19T00:00:00", "19T06:00:00"]], 6 * H],
    ["one open run up to now", [["20T00:00:00", null]], 12 * H],
    ["two targets overlapping", [["19T00:00:00", "19T10:00:00"], ["19T05:00:00", "19T12:00:00"]], 12 * H],
    ["one inside another", [["19T00:00:00", "19T12:00:00"], ["19T02:00:00", "19T03:00:00"]], 12 * H],
    ["apart: summed", [["18T00:00:00", "18T02:00:00"], ["19T00:00:00", "19T03:00:00"]], 5 * H],
    ["touching", [["19T00:00:00", "19T02:00:00"], ["19T02:00:00", "19T03:00:00"]], 3 * H],
    ["in the future: nothing yet", [["21T00:00:00", null]], 0],
  ])("%s", (_, spans, expected) => {
    expect(soakedMs(spans.map(([f, t]) => ({ from: at(f), to: t === null ? null : at(t) })), NOW)).toBe(expected);
  });
});

describe("versionOfImage", () => {
  const D1 = `sha256:${"1".repeat(64)}`;
  const D2 = `sha256:${"2".repeat(64)}`;
  const upstream = ["1.27", "1.27.2", "1.27.3", "latest"];
  it.each<[string, Parameters<typeof versionOfImage>[0], string | null]>([
    ["an exact tag", { tag: "1.27.3", digest: null, resolvedVersion: null, runs: [], upstreamTags: upstream }, "1.27.3"],
    ["a line tag that moves is unknown without a digest", { tag: "1.27", digest: null, resolvedVersion: null, runs: [], upstreamTags: upstream }, null],
    ["a moving tag resolved by digest upstream", { tag: "latest", digest: D1, resolvedVersion: "1.27.3", runs: [], upstreamTags: upstream }, "1.27.3"],
    ["a moving tag resolved by a digest that ran before", { tag: "1.27", digest: D2, resolvedVersion: null, runs: [{ digest: D2, version: "1.27.2" }], upstreamTags: upstream }, "1.27.2"],
    ["a digest alone", { tag: null, digest: D2, resolvedVersion: null, runs: [{ digest: D2, version: "1.27.2" }], upstreamTags: upstream }, "1.27.2"],
    ["an unknown digest alone", { tag: null, digest: D1, resolvedVersion: null, runs: [], upstreamTags: upstream }, null],
    ["no tag means latest: unknown", { tag: null, digest: null, resolvedVersion: null, runs: [], upstreamTags: upstream }, null],
    ["a line tag never checked upstream counts as its version", { tag: "2.4", digest: null, resolvedVersion: null, runs: [], upstreamTags: null }, "2.4"],
  ])("%s", (_, input, expected) => {
    expect(versionOfImage(input)).toBe(expected);
  });
});

describe("gate settings", () => {
  it("defaults: off, 0s, refuse end of life, allow unknown", () => {
    expect(gateSettingsOut(gateSettingsOf(null))).toEqual({ mode: "off", soak: "0s", refuse_eol: true, unknown: "allow" });
  });
  it.each<[string, unknown, object]>([
    ["a stored document", { mode: "enforce", soak: "72h", refuse_eol: false, unknown: "refuse" }, { mode: "enforce", soak: "3d", refuse_eol: false, unknown: "refuse" }],
    ["some fields", { mode: "audit", soak: "90m" }, { mode: "audit", soak: "90m", refuse_eol: true, unknown: "allow" }],
    ["no soak written as 0", { soak: "0" }, { mode: "off", soak: "0s", refuse_eol: true, unknown: "allow" }],
    ["zero seconds", { soak: "00s" }, { mode: "off", soak: "0s", refuse_eol: true, unknown: "allow" }],
    ["unknown values take the defaults", { mode: "strict", unknown: 1, refuse_eol: "yes" }, { mode: "off", soak: "0s", refuse_eol: true, unknown: "allow" }],
  ])("reads %s", (_, stored, expected) => {
    expect(gateSettingsOut(gateSettingsOf(stored))).toEqual(expected);
  });
});
