// Pure pieces behind the pages: URL state of the matrix, page size, the
// attention order, the policy form's mapping to an update, month ranges and
// weeks, and badge signatures.
import { describe, expect, it } from "vitest";
import { fieldOf, policyUpdateFromForm } from "@/app/services/[name]/policy-input";
import { attentionScore, type MatrixRow } from "@/components/matrix/matrix-model";
import { matrixHref, pageSizeFor, parseMatrixParams } from "@/components/matrix/search-params";
import { isSameSignature, signBadge } from "@/lib/services/badges/keys";
import { weekStart } from "@/lib/services/insights/weekly-arrivals";
import { monthRange } from "@/lib/services/reports/get-monthly";

describe("matrix URL state", () => {
  it.each([
    [{}, { q: "", team: "", env: "", kind: "", sort: "name", page: 1 }],
    [{ q: " api ", team: "platform", env: "production", kind: "eol", sort: "attention", page: "3" }, { q: "api", team: "platform", env: "production", kind: "eol", sort: "attention", page: 3 }],
    [{ kind: "nonsense", sort: "DROP", page: "-2", env: "../etc" }, { q: "", team: "", env: "", kind: "", sort: "name", page: 1 }],
    [{ team: ["a", "b"] }, { q: "", team: "a", env: "", kind: "", sort: "name", page: 1 }],
  ])("parses %j leniently", (raw, expected) => {
    expect(parseMatrixParams(raw)).toEqual(expected);
  });

  it("writes defaults out of the URL and round-trips the rest", () => {
    const p = parseMatrixParams({ q: "web", kind: "upstream", sort: "-name", page: "2" });
    expect(matrixHref(p)).toBe("/?q=web&kind=upstream&sort=-name&page=2");
    expect(parseMatrixParams(Object.fromEntries(new URL(matrixHref(p), "http://x").searchParams))).toEqual(p);
    expect(matrixHref(p, { page: 1, q: "", kind: "", sort: "name" })).toBe("/");
  });

  it.each([[1, 100], [4, 100], [5, 80], [8, 50], [40, 25]])("puts %i environments' rows %i to a page", (envs, rows) => {
    expect(pageSizeFor(envs)).toBe(rows);
  });
});

describe("attention order", () => {
  const row = (cells: Partial<MatrixRow["cells"][number]>[]): MatrixRow =>
    ({ name: "x", team: null, application: null, upstream: { repository: null, newest: null, checked_at: null, checked_by: null }, cells: cells.map((c) => ({ environment: "e", tag: "1", version: "1", display: "1", declared: false, targets: [], drifts: [], eol: null, ...c })) }) as MatrixRow;
  it("weighs end of life above drift markers, and nothing at zero", () => {
    const passed = row([{ eol: { product: "p", cycle: "1", eol_date: null, state: "passed" }, drifts: ["eol"] }]);
    const twoDrifts = row([{ drifts: ["env", "upstream"] }]);
    const clean = row([{}]);
    expect(attentionScore(passed)).toBeGreaterThan(attentionScore(twoDrifts));
    expect(attentionScore(twoDrifts)).toBeGreaterThan(attentionScore(clean));
    expect(attentionScore(clean)).toBe(0);
  });
});

describe("the policy form as an update", () => {
  const form = (entries: Record<string, string>) => {
    const f = new FormData();
    for (const [k, v] of Object.entries(entries)) f.set(k, v);
    return f;
  };
  it("sends every field: empty ones as null, numbers as numbers, delays as an object", () => {
    const { input, errors } = policyUpdateFromForm(form({ track: "minor", pin_major: "2", tag_filter: "^\\d+$", prerelease: "on", "drift_alert_after.env": "3d", team: "web" }));
    expect(errors).toEqual([]);
    expect(input).toEqual({
      team: "web",
      policy: { track: "minor", pin_major: 2, prerelease: true, tag_filter: "^\\d+$", github: null, gitlab: null, release_tag_prefix: null, changelog: null, eol: null, min_release_age: null, drift_alert_after: { env: "3d" } },
    });
  });
  it("refuses a pin_major that is not a whole number, by field", () => {
    expect(policyUpdateFromForm(form({ pin_major: "two" })).errors).toEqual([{ pointer: "/policy/pin_major", detail: "must be a whole number, such as 2" }]);
  });
  it.each([["/policy/tag_filter", "tag_filter"], ["/policy/drift_alert_after/env", "drift_alert_after.env"], ["/team", "team"]])("maps pointer %s to field %s", (pointer, field) => {
    expect(fieldOf(pointer)).toBe(field);
  });
});

describe("months and weeks", () => {
  it.each([["2026-11", "2026-11-01T00:00:00.000Z", "2026-12-01T00:00:00.000Z"], ["2026-12", "2026-12-01T00:00:00.000Z", "2027-01-01T00:00:00.000Z"]])("%s spans its UTC month", (m, from, to) => {
    expect(monthRange(m)).toEqual({ from: new Date(from), to: new Date(to) });
  });
  it.each(["2026-13", "2026-1", "26-11", "2026-11-01", ""])("refuses %j", (m) => {
    expect(monthRange(m)).toBeNull();
  });
  it.each([["2026-11-22T05:00:00Z", "2026-11-16"], ["2026-11-16T00:00:00Z", "2026-11-16"], ["2026-11-15T23:59:59Z", "2026-11-09"]])("the week of %s starts on Monday %s", (at, monday) => {
    expect(weekStart(new Date(at)).toISOString().slice(0, 10)).toBe(monday);
  });
});

describe("badge signatures", () => {
  it("bind workspace, service and environment", () => {
    const sig = signBadge("secret", "ws", "web", "production");
    expect(sig).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(signBadge("secret", "ws", "web", "staging")).not.toBe(sig);
    expect(signBadge("secret", "ws", "api", "production")).not.toBe(sig);
    expect(signBadge("secret", "ws2", "web", "production")).not.toBe(sig);
    expect(signBadge("other", "ws", "web", "production")).not.toBe(sig);
    expect(signBadge("secret", "ws", "web", null)).toBe(signBadge("secret", "ws", "web", ""));
  });
  it("compare as exact strings", () => {
    const sig = signBadge("secret", "ws", "web", null);
    expect(isSameSignature(sig, sig)).toBe(true);
    expect(isSameSignature(sig.slice(0, -1), sig)).toBe(false);
    expect(isSameSignature(`${sig}x`, sig)).toBe(false);
    expect(isSameSignature(sig.toUpperCase(), sig)).toBe(sig === sig.toUpperCase());
  });
});
