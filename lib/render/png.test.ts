// Renders every picture to PNG, as a viewer would, and keeps the PNGs in
// test-results/render/ for people to look at (both themes for the charts).
import { describe, expect, it } from "vitest";
import { renderBadgeSvg } from "./badge";
import { renderArrivalsChart, renderDriftTrendChart, renderVersionTimeline } from "./charts";
import { sampleArrivals, sampleDriftTrend, sampleTimeline } from "./testing/fixtures";
import { pngSize, svgToPng, writePreview } from "./testing/preview";

const BACKGROUND = { light: "#ffffff", dark: "#191a1d" } as const; // globals.css --surface

describe("PNG previews", () => {
  describe.each(["light", "dark"] as const)("%s theme", (theme) => {
    it.each([
      ["arrivals", () => renderArrivalsChart(sampleArrivals(), { theme }), 280],
      ["drift-trend", () => renderDriftTrendChart(sampleDriftTrend(), { theme }), 260],
      ["timeline", () => renderVersionTimeline(sampleTimeline(), { theme }), 26 + 4 * 28 + 6],
    ] as const)("%s renders at 2× its size", async (name, render, height) => {
      const { png, width: w, height: h } = await svgToPng(render(), { zoom: 2, background: BACKGROUND[theme] });
      expect(png.length).toBeGreaterThan(5_000);
      expect(pngSize(png)).toEqual({ width: 1440, height: height * 2 });
      expect([w, h]).toEqual([1440, height * 2]);
      writePreview(`${name}-${theme}.png`, png);
    });
  });

  it.each([
    ["up_to_date", "web · production", "1.27.3"],
    ["behind", "web · staging", "1.27.3-alpine3.20-perl"],
    ["attention", "payments-api", "0.9.14"],
    ["unknown", "worker · dev", ""],
  ] as const)("the %s badge renders at 4× its size", async (state, label, version) => {
    const svg = await renderBadgeSvg({ label, version, state });
    const width = Number(/width="(\d+)"/.exec(svg)?.[1]);
    const { png } = await svgToPng(svg, { zoom: 4 });
    expect(pngSize(png)).toEqual({ width: width * 4, height: 80 });
    writePreview(`badge-${state}.png`, png);
  });
});
