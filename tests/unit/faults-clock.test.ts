// A clock set back, in the pure drift lifecycle: a drift that ends while the
// server's clock reads earlier than its start (or its announcement) ends at
// that moment instead, so no duration is ever negative.
import { describe, expect, it } from "vitest";
import { planLifecycle } from "@/lib/domain/drift/lifecycle";
import type { DriftRecord } from "@/lib/domain/drift/types";

const T = (iso: string) => new Date(iso);
const record = (over: Partial<DriftRecord>): DriftRecord => ({
  id: "d1", serviceId: "s1", environmentId: "e1", kind: "inconsistent", targetId: null, state: "announced",
  running: "1.0.0", expected: "1.1.0", openedAt: T("2026-11-20T00:00:00Z"), announcedAt: T("2026-11-20T00:30:00Z"), resolvedAt: null, ...over,
});
const plan = (records: DriftRecord[], now: Date) =>
  planLifecycle({ records, differences: [], policies: new Map(), acks: [], currentVersions: new Map(), now });

describe("resolving a drift with the clock set back", () => {
  it.each([
    ["before the drift opened", "2026-11-17T00:00:00Z", "2026-11-20T00:30:00Z"],
    ["between opening and announcement", "2026-11-20T00:10:00Z", "2026-11-20T00:30:00Z"],
    ["after the announcement (the clock is right)", "2026-11-21T00:00:00Z", "2026-11-21T00:00:00Z"],
  ])("now %s: resolved at %s", (_, now, expected) => {
    const p = plan([record({})], T(now));
    expect(p.toResolve).toEqual([{ id: "d1", resolvedAt: T(expected) }]);
    expect(p.events.map((e) => e.type)).toEqual(["drift_resolved"]);
  });

  it("an open (never announced) drift ends no earlier than it began, and quietly", () => {
    const p = plan([record({ state: "open", announcedAt: null })], T("2026-11-01T00:00:00Z"));
    expect(p.toResolve).toEqual([{ id: "d1", resolvedAt: T("2026-11-20T00:00:00Z") }]);
    expect(p.events).toEqual([]);
  });
});
