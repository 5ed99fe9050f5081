import { Resvg } from "@resvg/resvg-js";
import { describe, expect, it } from "vitest";
import { DRIFT_KINDS } from "@/lib/domain/policy";
import { sampleDriftTrend } from "@/lib/render/testing/fixtures";
import { DRIFT_KIND_LABELS, renderDriftTrendChart } from "./drift-trend";

const count = (svg: string, pattern: RegExp) => svg.match(new RegExp(pattern.source, "g"))?.length ?? 0;

describe("renderDriftTrendChart", () => {
  const input = sampleDriftTrend();
  const svg = renderDriftTrendChart(input);

  it("draws one bar per day and kind with open drift, each with a hover title", () => {
    const data = input.days.flatMap((d) => Object.values(d.byKind)).filter((v) => v > 0);
    expect(count(svg, /<rect class="dw-bar /)).toBe(data.length);
    expect(count(svg, /<rect class="dw-bar [^"]*"[^>]*><title>[^<]+<\/title><\/rect>/)).toBe(data.length);
    expect(svg).toContain("<title>end of life, 2026-11-20: 1 open drift</title>");
    expect(svg).toContain("<title>newer release upstream, 2026-11-20: 11 open drifts</title>");
  });

  it("has a legend with every kind in the spec's order and a kind colour each", () => {
    const legend = /<g class="dw-legend">(.*?)<\/g>/.exec(svg)?.[1] ?? "";
    expect([...legend.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1])).toEqual(DRIFT_KINDS.map((k) => DRIFT_KIND_LABELS[k]));
    expect(svg).toContain(".dw-drift-trend .dw-s5{fill:var(--dw-chart-drift-eol,#c42b1c);}");
    expect(svg).toContain("@media (prefers-color-scheme: dark)");
  });

  it("labels the newest day and thins the other day labels so they do not overlap", () => {
    const xAxis = /<g class="dw-x-axis">(.*?)<\/g>/.exec(svg)?.[1] ?? "";
    const labels = [...xAxis.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
    expect(labels.at(-1)).toBe("Nov 20");
    expect(labels.length).toBeGreaterThan(4);
    expect(labels.length).toBeLessThan(16);
  });

  it("describes the latest day and the peak", () => {
    expect(svg).toContain("On 2026-11-20: 14 open drifts (newer release upstream 11, behind the previous environment 2, end of life 1). Most: 14 on 2026-11-19.");
    expect(svg).toMatch(/<title id="dw-drift-trend-title">Open drift per day by kind<\/title>/);
  });

  it("escapes a caller's title and id and stays valid XML", () => {
    const out = renderDriftTrendChart(input, { title: `Drift <"web"> & co`, id: `x" onload="alert(1)` });
    expect(out).toContain('<title id="x--onload--alert-1--title">');
    expect(out).toContain("Drift &lt;&quot;web&quot;&gt; &amp; co");
    expect(out).not.toContain('onload="');
    expect(() => new Resvg(out)).not.toThrow();
  });

  it("is deterministic", () => {
    expect(renderDriftTrendChart(sampleDriftTrend())).toBe(svg);
  });
});
