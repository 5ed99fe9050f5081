// The matrix cell's words, links and markup: tooltips reachable by keyboard
// and tied to their marker, calmer drift within its delay, several versions
// in one environment, and the upstream column's state.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { cellHref, cellVersionsText, driftTooltipText, tooltipId, upstreamNote } from "@/components/matrix/cell-text";
import { MatrixCellView, UpstreamView } from "@/components/matrix/matrix-cell";
import type { MatrixCell, MatrixDriftDetail, MatrixRow, MatrixUpstream } from "@/components/matrix/matrix-types";

const NOW = new Date("2026-11-27T12:00:00Z");
const target = (name: string, version: string | null, over: Partial<MatrixCell["targets"][number]> = {}) => ({ name, tag: version ?? "latest", version, ...over });
const cell = (over: Partial<MatrixCell> = {}): MatrixCell => ({
  environment: "production", tag: "3.1.1", version: "3.1.1", display: "3.1.1", declared: false, targets: [target("p1", "3.1.1")], drifts: [], eol: null, ...over,
});
const render = (c: MatrixCell | null) => renderToStaticMarkup(createElement("table", null, createElement("tbody", null, createElement("tr", null, createElement(MatrixCellView, { cell: c, service: "pay ments", now: NOW })))));

describe("cellVersionsText", () => {
  it.each<[string, Partial<MatrixCell>, string]>([
    ["one target", {}, "3.1.1"],
    ["a resolved moving tag keeps its display", { display: "3.1 = 3.1.1", targets: [target("p1", "3.1.1", { tag: "3.1" })] }, "3.1 = 3.1.1"],
    ["two targets, one version", { targets: [target("p1", "3.1.1"), target("p2", "3.1.1")] }, "3.1.1"],
    ["targets run different versions, oldest first", { targets: [target("p2", "3.2.0"), target("p1", "3.1.1")] }, "3.1.1 / 3.2.0"],
    ["an unresolved moving tag shows its tag", { targets: [target("p1", "3.1.1"), target("p2", null, { tag: "latest" })] }, "3.1.1 / latest"],
    ["more than three", { targets: ["3.0.0", "3.1.0", "3.1.1", "3.2.0", "3.3.0"].map((v, i) => target(`p${i}`, v)) }, "3.0.0 / 3.1.0 / 3.1.1 +2"],
    ["Git's rows do not count where something runs", { targets: [target("p1", "3.1.1"), target("git", "3.2.0", { declared: true })] }, "3.1.1"],
    ["only Git: its rows count", { declared: true, targets: [target("a", "3.2.0", { declared: true }), target("b", "3.1.1", { declared: true })] }, "3.1.1 / 3.2.0"],
  ])("%s", (_name, over, expected) => {
    expect(cellVersionsText(cell(over))).toBe(expected);
  });
});

describe("driftTooltipText", () => {
  const detail = (over: Partial<MatrixDriftDetail>): MatrixDriftDetail => ({ kind: "upstream", state: "announced", opened_at: "2026-11-20T09:00:00Z", ...over });
  it.each<[string, Parameters<typeof driftTooltipText>, string]>([
    ["announced, with its move", ["upstream", detail({ running: "3.1.1", expected: "4.0.0" }), NOW], "Newer release upstream: for 7 days 3 hours, since 2026-11-20 09:00 UTC; notified; 3.1.1 → 4.0.0"],
    ["open, within its delay", ["env", detail({ kind: "env", state: "open", opened_at: "2026-11-27T09:00:00Z" }), NOW], "Behind the previous environment: for 3 hours, since 2026-11-27 09:00 UTC; new, not notified yet"],
    ["acknowledged", ["eol", detail({ kind: "eol", silenced: true }), NOW], "End of life: for 7 days 3 hours, since 2026-11-20 09:00 UTC; notified; put off"],
    ["no details yet", ["inconsistent", null, NOW], "Targets differ; the service page has its dates"],
  ])("%s", (_name, args, expected) => {
    expect(driftTooltipText(...args)).toBe(expected);
  });
});

describe("MatrixCellView", () => {
  it("links the versions to the service page at that environment", () => {
    expect(cellHref("pay ments", "pre prod")).toBe("/services/pay%20ments?env=pre%20prod");
    expect(render(cell())).toContain('<a href="/services/pay%20ments?env=production">3.1.1</a>');
  });

  it("gives every marker a focusable button described by its visible tooltip", () => {
    const html = render(cell({
      drifts: ["upstream", "env"],
      drift_details: [
        { kind: "upstream", state: "announced", opened_at: "2026-11-20T09:00:00Z", running: "3.1.1", expected: "4.0.0" },
        { kind: "env", state: "open", opened_at: "2026-11-27T09:00:00Z" },
      ],
    }));
    const envId = tooltipId("pay ments", "production", "env");
    const upId = tooltipId("pay ments", "production", "upstream");
    expect(envId).toBe("t-pay_ments-production-env");
    // env before upstream (most alarming first); the open one drawn calm
    expect(html).toContain(`<button type="button" class="k-env calm" aria-label="Behind the previous environment" aria-describedby="${envId}"></button><span role="tooltip" id="${envId}">Behind the previous environment: for 3 hours, since 2026-11-27 09:00 UTC; new, not notified yet</span>`);
    expect(html).toContain(`<button type="button" class="k-upstream" aria-label="Newer release upstream" aria-describedby="${upId}"></button><span role="tooltip" id="${upId}">Newer release upstream: for 7 days 3 hours, since 2026-11-20 09:00 UTC; notified; 3.1.1 → 4.0.0</span>`);
    expect(html.indexOf("k-env")).toBeLessThan(html.indexOf("k-upstream"));
  });

  it("without details a marker is drawn as announced and its tooltip names the kind", () => {
    const html = render(cell({ drifts: ["declared"] }));
    expect(html).toContain('class="k-declared" aria-label="Differs from Git"');
    expect(html).toContain(">Differs from Git; the service page has its dates</span>");
  });

  it("says when targets run different versions", () => {
    expect(render(cell({ targets: [target("p1", "3.1.1"), target("p2", "3.2.0")], drifts: ["inconsistent"] }))).toContain(">3.1.1 / 3.2.0</a>");
  });

  it("renders an empty cell where nothing runs", () => {
    expect(render(null)).toContain('<td class="none"></td>');
  });
});

describe("the upstream column", () => {
  const up = (over: Partial<MatrixUpstream>): MatrixUpstream => ({ repository: "docker.io/library/nginx", newest: "1.27.3", checked_at: "2026-11-27T10:00:00Z", ...over });
  it.each<[string, MatrixUpstream, ReturnType<typeof upstreamNote>]>([
    ["ok: nothing to add", up({ state: "ok" }), null],
    ["failed: the reason and the age of what is known", up({ state: "failed", error: "registry-1.docker.io: name not resolved" }), { text: "check failed: registry-1.docker.io: name not resolved; last good check 2 hours ago", tone: "bad" }],
    ["failed before any good check", up({ state: "failed", error: "401 from ghcr.io: private repository, check it with an agent", checked_at: null, newest: null }), { text: "check failed: 401 from ghcr.io: private repository, check it with an agent; never checked successfully", tone: "bad" }],
    ["stale", up({ state: "stale", checked_at: "2026-11-25T12:00:00Z" }), { text: "stale: last good check 2 days ago", tone: "warn" }],
    ["unchecked", up({ state: "unchecked", checked_at: null, newest: null }), { text: "not checked yet", tone: "muted" }],
    ["no state given, checked recently", up({}), null],
    ["no state given, overdue", up({ checked_at: "2026-11-25T12:00:00Z" }), { text: "checked 2 days ago", tone: "muted" }],
  ])("%s", (_name, upstream, expected) => {
    expect(upstreamNote(upstream, NOW)).toEqual(expected);
  });

  it("marks a failed check in the cell", () => {
    const row: MatrixRow = { name: "web", team: null, upstream: up({ state: "failed", error: "quay.io: connection refused" }), cells: [] };
    const html = renderToStaticMarkup(createElement("table", null, createElement("tbody", null, createElement("tr", null, createElement(UpstreamView, { row, now: NOW })))));
    expect(html).toContain('<td class="up-failed">1.27.3<small>check failed: quay.io: connection refused; last good check 2 hours ago</small></td>');
  });
});
