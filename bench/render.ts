// Rendering figures: a badge rendered with satori (median of 50 after
// warm-up), a badge served from the cache, and the version timeline at
// 2,000 segments, plus the two delivery charts for scale.
import { pathToFileURL } from "node:url";
import { median, type Figure } from "@/bench/figures";
import { renderBadgeSvg } from "@/lib/render/badge";
import { renderArrivalsChart, renderDriftTrendChart, renderVersionTimeline } from "@/lib/render/charts";
import { largeTimeline, sampleArrivals, sampleDriftTrend } from "@/lib/render/testing/fixtures";

async function timeAsync(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

function time(run: () => unknown): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

export async function benchRender(): Promise<Figure[]> {
  // Each uncached run uses a version the cache has not seen, so satori lays it out again.
  const badge = (i: number) => ({ label: "payments-api · production", version: `1.${i}.3-alpine`, state: "behind" as const });
  const firstMs = await timeAsync(() => renderBadgeSvg(badge(-1)));
  for (let i = 0; i < 20; i++) await renderBadgeSvg(badge(1_000 + i));
  const uncached: number[] = [];
  for (let i = 0; i < 50; i++) uncached.push(await timeAsync(() => renderBadgeSvg(badge(i))));
  const badgeMs = median(uncached);

  const cached: number[] = [];
  for (let i = 0; i < 1_000; i++) cached.push(await timeAsync(() => renderBadgeSvg(badge(i % 50))));
  const cachedMs = median(cached);

  const timeline = largeTimeline(2_000, 20);
  for (let i = 0; i < 5; i++) renderVersionTimeline(timeline);
  const timelineRuns: number[] = [];
  let bytes = 0;
  for (let i = 0; i < 30; i++) timelineRuns.push(time(() => (bytes = renderVersionTimeline(timeline).length)));
  const timelineMs = median(timelineRuns);

  const arrivals = sampleArrivals();
  const trend = sampleDriftTrend();
  const delivery = () => renderArrivalsChart(arrivals).length + renderDriftTrendChart(trend).length;
  for (let i = 0; i < 20; i++) delivery();
  const deliveryRuns: number[] = [];
  for (let i = 0; i < 100; i++) deliveryRuns.push(time(delivery));
  const deliveryMs = median(deliveryRuns);

  return [
    {
      name: "render.badge.median_ms",
      value: Number(badgeMs.toFixed(2)),
      unit: "ms",
      target: "< 50 ms",
      pass: badgeMs < 50,
      note: `satori + Inter, uncached, median of ${uncached.length} after 20 warm-up renders; the very first render (font parsing, WASM start) took ${firstMs.toFixed(0)} ms`,
    },
    {
      name: "render.badge_cached.median_ms",
      value: Number(cachedMs.toFixed(4)),
      unit: "ms",
      target: "< 1 ms",
      pass: cachedMs < 1,
      note: `LRU hit (500 entries), median of ${cached.length}`,
    },
    {
      name: "render.timeline_2000_segments.median_ms",
      value: Number(timelineMs.toFixed(2)),
      unit: "ms",
      target: "< 50 ms",
      pass: timelineMs < 50,
      note: `20 lanes, 2,000 segments, ${Math.round(bytes / 1024)} KiB of SVG, median of ${timelineRuns.length}`,
    },
    {
      name: "render.delivery_charts.median_ms",
      value: Number(deliveryMs.toFixed(3)),
      unit: "ms",
      target: "",
      pass: null,
      note: `arrivals (12 weeks × 3 environments) and drift trend (30 days × 5 kinds) together, median of ${deliveryRuns.length}`,
    },
  ];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const f of await benchRender()) {
    const verdict = f.pass === null ? "info" : f.pass ? "PASS" : "FAIL";
    console.log(`${verdict.padEnd(4)} ${f.name} = ${f.value} ${f.unit}${f.target ? ` (target ${f.target})` : ""}${f.note ? `  ${f.note}` : ""}`);
  }
}
