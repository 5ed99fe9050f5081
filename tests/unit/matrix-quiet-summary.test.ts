// What the matrix says about quiet targets, end of life and the attention order.
import { describe, expect, it } from "vitest";
import { eolTooltipText, lastReportAge, quietNote } from "@/components/matrix/cell-text";
import { timeAgo } from "@/components/ui/format";
import { attentionOrder, attentionRank, type MatrixRow } from "@/components/matrix/matrix-model";

const now = new Date("2026-11-29T12:00:00Z");
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
const target = (name: string, state: "reporting" | "quiet", seenMsAgo: number) => ({ name, tag: "1.0.0", version: "1.0.0", declared: false, state, last_seen_at: ago(seenMsAgo) });

describe("quietNote", () => {
  it.each([
    ["every target reporting", { quiet: false, last_seen_at: ago(60_000), targets: [target("a", "reporting", 60_000)] }, null],
    ["the only target quiet for two hours", { quiet: true, last_seen_at: ago(2 * 3_600_000), targets: [target("a", "quiet", 2 * 3_600_000)] }, `quiet: last report ${timeAgo(ago(2 * 3_600_000), now)}`],
    ["quiet for 45 seconds: never 'just now'", { quiet: true, last_seen_at: ago(45_000), targets: [target("a", "quiet", 45_000)] }, "quiet: last report 45 seconds ago"],
    ["one of two quiet", { quiet: false, last_seen_at: ago(60_000), targets: [target("eu", "reporting", 60_000), target("us", "quiet", 3 * 86_400_000)] }, `1 of 2 targets quiet (us, last report ${timeAgo(ago(3 * 86_400_000), now)})`],
  ])("%s", (_, cell, text) => {
    expect(quietNote(cell, now)).toBe(text);
  });

  it("says never for a target that never reported", () => {
    expect(lastReportAge(null, now)).toBe("never");
  });
});

describe("eolTooltipText", () => {
  it("gives the date and the fix", () => {
    expect(eolTooltipText({ product: "postgresql", cycle: "14", eol_date: "2026-11-12", state: "passed" }, "17.2"))
      .toBe("postgresql 14 reached its end of life on 2026-11-12: no more security fixes. To fix: move to a supported cycle, such as 17.2 (the newest release).");
    expect(eolTooltipText({ product: "redis", cycle: "7.2", eol_date: "2027-01-10", state: "soon" }, null))
      .toBe("redis 7.2 reaches its end of life on 2027-01-10: no more security fixes. To fix: move to a supported cycle.");
  });
});

describe("attention order", () => {
  const row = (name: string, drifts: number): MatrixRow => ({
    name, team: null, upstream: { repository: null, newest: null, checked_at: null },
    cells: [{ environment: "prod", tag: "1", version: "1", display: "1", declared: false, targets: [], drifts: Array.from({ length: drifts }, () => "upstream" as const), eol: null }],
  });
  it("follows the Updates lines, put-off lines after, then the rest by markers and name", () => {
    const rank = attentionRank({
      items: [{ service: "queue" }, { service: "orders-db" }, { service: "queue" }],
      acknowledged: [{ service: "cache" }],
    });
    const rows = [row("zeta", 0), row("cache", 5), row("orders-db", 1), row("alpha", 2), row("queue", 1), row("beta", 2)];
    expect(rows.sort(attentionOrder(rank)).map((r) => r.name)).toEqual(["queue", "orders-db", "cache", "alpha", "beta", "zeta"]);
  });
});
