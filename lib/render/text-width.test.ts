import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { ReactElement } from "react";
import satori, { type SatoriNode } from "satori";
import { describe, expect, it } from "vitest";
import { measureText, truncateToWidth } from "./text-width";

const require = createRequire(import.meta.url);
const font = (weight: 400 | 600) => readFileSync(require.resolve(`@fontsource/inter/files/inter-latin-${weight}-normal.woff`));

/** The width satori's layout gives `text` in Inter, unrounded. */
async function satoriWidth(text: string, fontSize: number, weight: 400 | 600): Promise<number> {
  const nodes: SatoriNode[] = [];
  const element: ReactElement = {
    type: "div",
    key: null,
    props: { style: { display: "flex", fontFamily: "Inter", fontSize, fontWeight: weight, whiteSpace: "pre" }, children: text },
  };
  await satori(element, {
    height: 40,
    pointScaleFactor: 0,
    fonts: [{ name: "Inter", data: font(weight), weight, style: "normal" }],
    onNodeDetected: (node) => nodes.push(node),
  });
  return nodes[0]?.width ?? Number.NaN;
}

describe("measureText", () => {
  it.each<[string, number, 400 | 600]>([
    ["production · docker@host-1", 12, 400],
    ["1.27.3-alpine", 11, 600],
    ["Nov 16", 11, 400],
    ["WWW mmm iii 000", 12, 400],
    ["staging, week of 2026-11-02", 12, 600],
  ])("agrees with satori's layout of %j within 3%%", async (text, size, weight) => {
    const expected = await satoriWidth(text, size, weight);
    // Kerning (ignored here) only tightens text, so the estimate may run a little long, never short by much.
    expect(Math.abs(measureText(text, size, weight) - expected) / expected).toBeLessThan(0.03);
  });

  it("counts unknown wide characters as a full em", () => {
    expect(measureText("漢字", 10)).toBe(20);
  });
});

describe("truncateToWidth", () => {
  it("keeps text that fits", () => {
    expect(truncateToWidth("staging", 100, 12)).toBe("staging");
  });

  it("ends cut text in an ellipsis within the width", () => {
    const cut = truncateToWidth("production · docker@a-very-long-host-name", 120, 12);
    expect(cut.endsWith("…")).toBe(true);
    expect(measureText(cut, 12)).toBeLessThanOrEqual(120);
    expect("production · docker@a-very-long-host-name".startsWith(cut.slice(0, -1))).toBe(true);
  });

  it("gives up when not even the ellipsis fits", () => {
    expect(truncateToWidth("abc", 2, 12)).toBe("");
  });
});
