// What every chart shares: the root <svg> with its accessible name and
// description, the base stylesheet, and the legend.
import { attrs, escapeXml, num, safeId } from "@/lib/render/svg";
import { measureText } from "@/lib/render/text-width";
import { FONT_FAMILY, UI_TOKENS, themeStyle, type ThemeMode, type ThemeRule, type Token } from "@/lib/render/theme";

export type ChartOptions = {
  /** Prefix of the ids inside the chart; give each chart on one page its own. */
  id?: string;
  /** "auto" follows the page and prefers-color-scheme; "light"/"dark" write fixed colours (print, previews). */
  theme?: ThemeMode;
  /** Width of the drawing in px; text keeps its size, the plot stretches. */
  width?: number;
  /** Replaces the chart's default title (its accessible name), e.g. to name the service. */
  title?: string;
};

export const FONT_SIZE = 12;
export const SMALL_FONT_SIZE = 11;

/** The rules every chart uses: text, muted text, grid, axis and lane track colours. */
export function baseRules(root: string): ThemeRule[] {
  return [
    { selector: `.${root}`, declarations: { "font-family": `var(--font,${FONT_FAMILY})` } },
    { selector: `.${root} .dw-fg`, declarations: { fill: UI_TOKENS.fg } },
    { selector: `.${root} .dw-muted`, declarations: { fill: UI_TOKENS.muted } },
    { selector: `.${root} .dw-grid`, declarations: { stroke: UI_TOKENS.grid } },
    { selector: `.${root} .dw-axis`, declarations: { stroke: UI_TOKENS.axis } },
    { selector: `.${root} .dw-track`, declarations: { fill: UI_TOKENS.track } },
  ];
}

/** A rule filling `.className` inside the chart with `colour`. */
export function fillRule(root: string, className: string, colour: Token): ThemeRule {
  return { selector: `.${root} .${className}`, declarations: { fill: colour } };
}

export type Frame = {
  root: string;
  id: string;
  width: number;
  height: number;
  title: string;
  desc: string;
  rules: readonly ThemeRule[];
  theme: ThemeMode;
};

/** The opening of the chart: `<svg>`, `<title>`, `<desc>` and `<style>`. Close it with `</svg>`. */
export function openChart(frame: Frame): string {
  const id = safeId(frame.id);
  const svg = `<svg${attrs({
    xmlns: "http://www.w3.org/2000/svg",
    class: `dw-chart ${frame.root}`,
    width: frame.width,
    height: frame.height,
    viewBox: `0 0 ${num(frame.width)} ${num(frame.height)}`,
    role: "img",
    "aria-labelledby": `${id}-title ${id}-desc`,
    "font-family": FONT_FAMILY,
    style: "max-width:100%;height:auto",
  })}>`;
  return (
    svg +
    `<title id="${id}-title">${escapeXml(frame.title)}</title>` +
    `<desc id="${id}-desc">${escapeXml(frame.desc)}</desc>` +
    themeStyle(frame.rules, frame.theme)
  );
}

export type LegendItem = { label: string; className: string };

/**
 * A legend row starting at (x, y), wrapping onto new lines within `maxWidth`.
 * Returns the markup and the height it takes.
 */
export function legend(items: readonly LegendItem[], x: number, y: number, maxWidth: number): { svg: string; height: number } {
  const swatch = 10;
  const lineHeight = 18;
  let cx = x;
  let cy = y;
  let out = `<g class="dw-legend">`;
  for (const item of items) {
    const width = swatch + 6 + measureText(item.label, FONT_SIZE) + 16;
    if (cx > x && cx + width - 16 > x + maxWidth) {
      cx = x;
      cy += lineHeight;
    }
    out +=
      `<rect${attrs({ class: item.className, x: cx, y: cy + 2, width: swatch, height: swatch, rx: 2 })}/>` +
      `<text${attrs({ class: "dw-fg", x: cx + swatch + 6, y: cy + 11, "font-size": FONT_SIZE })}>${escapeXml(item.label)}</text>`;
    cx += width;
  }
  out += `</g>`;
  return { svg: items.length === 0 ? "" : out, height: items.length === 0 ? 0 : cy - y + lineHeight };
}

/** `<text>` with escaped content. */
export function text(content: string, at: Record<string, string | number | undefined>): string {
  return `<text${attrs(at)}>${escapeXml(content)}</text>`;
}
