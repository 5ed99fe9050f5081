import { Resvg } from "@resvg/resvg-js";
import { describe, expect, it } from "vitest";
import { sampleArrivals } from "@/lib/render/testing/fixtures";
import { renderArrivalsChart } from "./arrivals";

const count = (svg: string, pattern: RegExp) => svg.match(new RegExp(pattern.source, "g"))?.length ?? 0;

describe("renderArrivalsChart", () => {
  const input = sampleArrivals();
  const svg = renderArrivalsChart(input);

  it("draws one bar per week and environment with arrivals, each with a hover title", () => {
    const data = input.weeks.flatMap((w) => Object.values(w.byEnvironment)).filter((v) => v > 0);
    expect(count(svg, /<rect class="dw-bar /)).toBe(data.length);
    expect(count(svg, /<title>[^<]*, week of \d{4}-\d{2}-\d{2}: \d+ versions?<\/title>/)).toBe(data.length);
    expect(svg).toContain("<title>staging, week of 2026-11-02: 4 versions</title>");
    expect(svg).toContain("<title>production, week of 2026-09-14: 1 version</title>");
  });

  it("has a legend in pipeline order, y-axis ticks and a label per week", () => {
    const legend = /<g class="dw-legend">(.*?)<\/g>/.exec(svg)?.[1] ?? "";
    expect([...legend.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1])).toEqual(["dev", "staging", "production"]);
    const yAxis = /<g class="dw-y-axis">(.*?)<\/g>/.exec(svg)?.[1] ?? "";
    expect([...yAxis.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1])).toEqual(["0", "5", "10", "15", "20"]);
    const xAxis = /<g class="dw-x-axis">(.*?)<\/g>/.exec(svg)?.[1] ?? "";
    expect([...xAxis.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1])).toEqual([
      "Aug 31", "Sep 7", "Sep 14", "Sep 21", "Sep 28", "Oct 5", "Oct 12", "Oct 19", "Oct 26", "Nov 2", "Nov 9", "Nov 16",
    ]);
  });

  it("is an accessible image with a title and a description of the numbers", () => {
    expect(svg).toMatch(/^<svg [^>]*role="img" aria-labelledby="dw-arrivals-title dw-arrivals-desc"/);
    expect(svg).toContain('<title id="dw-arrivals-title">Versions arrived per week and environment</title>');
    expect(svg).toContain("155 versions arrived in all: dev 78, staging 49, production 28.");
  });

  it("follows the page's colours and the dark scheme through its embedded style, without script", () => {
    expect(svg).toContain("@media (prefers-color-scheme: dark)");
    expect(svg).toContain(".dw-arrivals .dw-fg{fill:var(--fg,#17181a);}");
    expect(svg).toMatch(/@media \(prefers-color-scheme: dark\)\{.*\.dw-arrivals \.dw-s1\{fill:var\(--dw-chart-series-1,#8fa4ff\);\}/);
    expect(svg).not.toMatch(/<script|on\w+=/);
    const dark = renderArrivalsChart(input, { theme: "dark" });
    expect(dark).not.toContain("var(--fg");
    expect(dark).not.toContain("@media");
    expect(dark).toContain(".dw-arrivals .dw-s1{fill:#8fa4ff;}");
  });

  it("escapes environment names everywhere", () => {
    const hostile = renderArrivalsChart({
      environments: [`<script>alert("x")</script>`, "R&D"],
      weeks: [{ weekStart: "2026-11-02", byEnvironment: { [`<script>alert("x")</script>`]: 2, "R&D": 1, "it's": 1 } }],
    });
    expect(hostile).not.toContain("<script");
    expect(hostile).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;, week of 2026-11-02: 2 versions");
    expect(hostile).toContain(">R&amp;D</text>");
    expect(hostile).toContain(">it&#39;s</text>");
    expect(() => new Resvg(hostile)).not.toThrow();
  });

  it("is deterministic and independent of the order weeks arrive in", () => {
    const shuffled = { ...input, weeks: [...input.weeks].reverse() };
    expect(renderArrivalsChart(shuffled)).toBe(svg);
  });

  it("adds environments missing from the pipeline order after it, and ignores bad counts", () => {
    const out = renderArrivalsChart({
      environments: ["staging"],
      weeks: [{ weekStart: "2026-11-02", byEnvironment: { qa: 1, staging: 2, canary: 3, bad: Number.NaN, negative: -4 } }],
    });
    const legend = /<g class="dw-legend">(.*?)<\/g>/.exec(out)?.[1] ?? "";
    expect([...legend.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1])).toEqual(["staging", "bad", "canary", "negative", "qa"]);
    expect(count(out, /<rect class="dw-bar /)).toBe(3);
  });

  it("says so when nothing arrived", () => {
    const out = renderArrivalsChart({ environments: ["dev"], weeks: [{ weekStart: "2026-11-02", byEnvironment: {} }] });
    expect(count(out, /<rect class="dw-bar /)).toBe(0);
    expect(out).toContain("No versions arrived in these weeks");
  });
});
