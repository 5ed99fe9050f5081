import { Resvg } from "@resvg/resvg-js";
import { describe, expect, it } from "vitest";
import { largeTimeline, sampleTimeline } from "@/lib/render/testing/fixtures";
import { renderVersionTimeline, type VersionTimelineInput } from "./version-timeline";

const count = (svg: string, pattern: RegExp) => svg.match(new RegExp(pattern.source, "g"))?.length ?? 0;
const segments = (svg: string) =>
  [...svg.matchAll(/<g class="dw-seg"><title>([^<]*)<\/title><rect class="(dw-v\d)" x="([\d.]+)" y="[\d.]+" width="([\d.]+)"/g)].map((m) => ({
    title: m[1] ?? "",
    colour: m[2] ?? "",
    x: Number(m[3]),
    width: Number(m[4]),
  }));

const utc = (s: string) => new Date(`${s}Z`);

describe("renderVersionTimeline", () => {
  const input = sampleTimeline();
  const svg = renderVersionTimeline(input);

  it("draws one segment per version run in the period, each with its dates on hover", () => {
    const inRange = input.lanes.flatMap((l) => l.segments).filter((s) => s.to === null || s.to > input.from);
    expect(count(svg, /<g class="dw-seg">/)).toBe(inRange.length);
    expect(svg).toContain("<title>1.27.2 on production · docker@host-2: 2026-11-03 08:00 → 2026-11-08 09:00 UTC</title>");
    expect(svg).toContain("<title>1.28.0 on dev · docker@dev-1: 2026-11-13 09:00 UTC → now</title>");
    // A run that began before the period keeps its real start in the title.
    expect(svg).toContain("<title>1.27.1 on dev · docker@dev-1: 2026-10-12 09:00 → 2026-10-24 14:00 UTC</title>");
  });

  it("keeps one colour per version across lanes, and writes the version where it fits", () => {
    const all = segments(svg);
    const colourOf = new Map<string, Set<string>>();
    for (const s of all) {
      const version = s.title.split(" ")[0] ?? "";
      colourOf.set(version, (colourOf.get(version) ?? new Set()).add(s.colour));
    }
    for (const colours of colourOf.values()) expect(colours.size).toBe(1);
    expect(new Set([...colourOf.values()].map((c) => [...c][0])).size).toBe(colourOf.size);
    expect(svg).toMatch(/font-weight="600">1\.27\.3<\/text>/);
    expect(svg).not.toMatch(/>1\.28\.0-rc\.1<\/text>/); // four days is too narrow for it
  });

  it("clips segments to the period and stacks them inside the plot", () => {
    const all = segments(svg);
    const x0 = Math.min(...all.map((s) => s.x));
    const x1 = Math.max(...all.map((s) => s.x + s.width));
    expect(x1).toBeLessThanOrEqual(720 - 8);
    for (const s of all) expect(s.x).toBeGreaterThanOrEqual(x0);
  });

  it("leaves out runs outside the period and broken dates", () => {
    const out = renderVersionTimeline({
      from: utc("2026-11-01T00:00"),
      to: utc("2026-11-10T00:00"),
      lanes: [
        {
          label: "prod-1",
          segments: [
            { version: "0.9", from: utc("2026-10-01T00:00"), to: utc("2026-10-05T00:00") },
            { version: "1.0", from: utc("2026-10-05T00:00"), to: utc("2026-11-02T00:00") },
            { version: "1.1", from: utc("2026-11-02T00:00"), to: null },
            { version: "2.0", from: utc("2026-11-11T00:00"), to: null },
            { version: "bad", from: new Date(Number.NaN), to: null },
          ],
        },
      ],
    });
    expect(segments(out).map((s) => s.title.split(" ")[0])).toEqual(["1.0", "1.1"]);
  });

  it("has a date axis, an accessible name and a description per lane", () => {
    const xAxis = /<g class="dw-x-axis">(.*?)<\/g>/.exec(svg)?.[1] ?? "";
    expect([...xAxis.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1])).toEqual(["Oct 26", "Nov 2", "Nov 9", "Nov 16"]);
    expect(svg).toMatch(/^<svg [^>]*role="img" aria-labelledby="dw-timeline-title dw-timeline-desc"/);
    expect(svg).toContain("production · docker@host-1: 2 versions, runs 1.27.3 now");
    expect(svg).toContain("@media (prefers-color-scheme: dark)");
  });

  it("shortens long lane labels and keeps the whole label on hover", () => {
    const label = `production · ${"very-long-kubernetes-node-name-".repeat(4)}1`;
    const out = renderVersionTimeline({ ...input, lanes: [{ label, segments: [{ version: "1.0", from: input.from, to: null }] }] });
    expect(out).toContain(`<g><title>${label}</title><text class="dw-fg" x="0"`);
    expect(out).toMatch(/>production · very-long[^<]*…<\/text>/);
  });

  it("on a phone's width, writes each lane's label whole above its bar and gives the bars the full width", () => {
    const narrow = renderVersionTimeline(input, { width: 320 });
    for (const lane of input.lanes) expect(narrow).toContain(`>${lane.label}</text>`);
    const bars = segments(narrow);
    expect(Math.min(...bars.map((b) => b.x))).toBeLessThan(10);
    const labelY = [...narrow.matchAll(/<text class="dw-fg" x="0" y="([\d.]+)" font-size="12">/g)].map((m) => Number(m[1]));
    const barY = [...narrow.matchAll(/<rect class="dw-track" x="0" y="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(labelY).toHaveLength(input.lanes.length);
    labelY.forEach((y, i) => expect(y).toBeLessThanOrEqual(barY[i]!));
  });

  it("escapes labels and versions", () => {
    const hostile: VersionTimelineInput = {
      ...input,
      lanes: [{ label: `<script>"prod"</script> & co`, segments: [{ version: "1.0<b>&", from: input.from, to: null }] }],
    };
    const out = renderVersionTimeline(hostile);
    expect(out).not.toContain("<script");
    expect(out).not.toContain("<b>");
    expect(out).toContain("1.0&lt;b&gt;&amp; on &lt;script&gt;&quot;prod&quot;&lt;/script&gt; &amp; co: 2026-10-21 10:00 UTC → now");
    expect(() => new Resvg(out)).not.toThrow();
  });

  it("draws an empty period with a message", () => {
    const out = renderVersionTimeline({ ...input, lanes: [] });
    expect(out).toContain("Nothing ran in this period");
    expect(count(out, /<g class="dw-seg">/)).toBe(0);
  });

  it("draws 2,000 segments, deterministically", () => {
    const big = largeTimeline(2_000, 20);
    const out = renderVersionTimeline(big);
    expect(count(out, /<g class="dw-seg">/)).toBe(2_000);
    expect(renderVersionTimeline(largeTimeline(2_000, 20))).toBe(out);
  });
});
