// A vertical stacked-bar chart: one slot per category (a week, a day), one
// stacked rectangle per series with a value. Both delivery charts are this
// chart with different data and words.
import { attrs, escapeXml, num } from "@/lib/render/svg";
import { measureText } from "@/lib/render/text-width";
import { niceTicks } from "@/lib/render/ticks";
import type { ThemeMode, Token } from "@/lib/render/theme";
import { FONT_SIZE, SMALL_FONT_SIZE, baseRules, fillRule, legend, openChart, text } from "./frame";

export type StackedBarsSpec = {
  root: string;
  id: string;
  theme: ThemeMode;
  width: number;
  height: number;
  title: string;
  desc: string;
  /** What the y axis counts, printed above it ("versions"). */
  unit: string;
  /** Printed in the plot when every value is zero. */
  emptyMessage: string;
  categories: readonly { label: string }[];
  series: readonly { label: string; colour: Token }[];
  /** values[category][series]; negative and non-finite values count as zero. */
  values: readonly (readonly number[])[];
  /** The hover title of one rectangle. */
  barTitle: (category: number, series: number, value: number) => string;
};

const clean = (v: number | undefined) => (v !== undefined && Number.isFinite(v) && v > 0 ? v : 0);

export function renderStackedBars(spec: StackedBarsSpec): string {
  const { width } = spec;
  const seriesClass = (s: number) => `dw-s${s + 1}`;
  const rules = [...baseRules(spec.root), ...spec.series.map((s, i) => fillRule(spec.root, seriesClass(i), s.colour))];

  const totals = spec.categories.map((_, c) => spec.series.reduce((sum, _s, s) => sum + clean(spec.values[c]?.[s]), 0));
  const ticks = niceTicks(0, Math.max(0, ...totals), 5, { integer: true });
  const tickLabelWidth = Math.max(...ticks.values.map((v) => measureText(String(v), SMALL_FONT_SIZE)));

  const left = Math.ceil(Math.max(24, tickLabelWidth + 14));
  const right = 8;
  const legendBlock = legend(
    spec.series.map((s, i) => ({ label: s.label, className: seriesClass(i) })),
    0,
    4,
    width - right,
  );
  const top = legendBlock.height + 30;
  const bottom = 26;
  const plotWidth = width - left - right;
  // `spec.height` assumes a one-line legend; more lines make the chart taller, not the plot shorter.
  const height = spec.height + Math.max(0, legendBlock.height - 18);
  const plotHeight = Math.max(40, height - top - bottom);
  const baseline = top + plotHeight;
  const y = (v: number) => baseline - (v / ticks.max) * plotHeight;

  let out = openChart({ root: spec.root, id: spec.id, width, height, title: spec.title, desc: spec.desc, rules, theme: spec.theme });
  out += legendBlock.svg;

  // Y axis: grid lines with their values, and the unit above them.
  out += text(spec.unit, { class: "dw-muted", x: 0, y: top - 12, "font-size": SMALL_FONT_SIZE });
  out += `<g class="dw-y-axis">`;
  for (const v of ticks.values) {
    const ty = Math.round(y(v)) + 0.5;
    if (v > 0) out += `<line${attrs({ class: "dw-grid", x1: left, x2: width - right, y1: ty, y2: ty })}/>`;
    out += text(String(v), { class: "dw-muted", x: left - 8, y: ty + 4, "font-size": SMALL_FONT_SIZE, "text-anchor": "end" });
  }
  out += `</g>`;

  const n = Math.max(1, spec.categories.length);
  const slot = plotWidth / n;
  const barWidth = Math.max(2, Math.min(slot * 0.64, 40));

  // Bars, bottom-up in series order; a 1px gap separates the pieces of a stack.
  out += `<g class="dw-bars">`;
  spec.categories.forEach((_, c) => {
    const x = left + slot * c + (slot - barWidth) / 2;
    let sum = 0;
    spec.series.forEach((_s, s) => {
      const v = clean(spec.values[c]?.[s]);
      if (v === 0) return;
      const yBottom = y(sum) - (sum > 0 ? 1 : 0);
      sum += v;
      const yTop = y(sum);
      out +=
        `<rect${attrs({ class: `dw-bar ${seriesClass(s)}`, x, y: yTop, width: barWidth, height: Math.max(1, yBottom - yTop), rx: 1.5 })}>` +
        `<title>${escapeXml(spec.barTitle(c, s, v))}</title></rect>`;
    });
  });
  out += `</g>`;

  // Totals above the stacks, where slots are wide enough for them not to crowd.
  out += `<g class="dw-totals">`;
  totals.forEach((total, c) => {
    if (total === 0 || slot < 32 || measureText(String(total), SMALL_FONT_SIZE) > slot - 4) return;
    out += text(String(total), { class: "dw-muted", x: left + slot * (c + 0.5), y: y(total) - 5, "font-size": SMALL_FONT_SIZE, "text-anchor": "middle" });
  });
  out += `</g>`;

  out += `<line${attrs({ class: "dw-axis", x1: left, x2: width - right, y1: Math.round(baseline) + 0.5, y2: Math.round(baseline) + 0.5 })}/>`;

  // X labels, thinned so they never overlap; the newest category always has one.
  const labelWidth = Math.max(0, ...spec.categories.map((c) => measureText(c.label, SMALL_FONT_SIZE))) + 10;
  const every = Math.max(1, Math.ceil(labelWidth / slot));
  out += `<g class="dw-x-axis">`;
  spec.categories.forEach((category, c) => {
    if ((spec.categories.length - 1 - c) % every !== 0) return;
    out += text(category.label, { class: "dw-muted", x: left + slot * (c + 0.5), y: baseline + 17, "font-size": SMALL_FONT_SIZE, "text-anchor": "middle" });
  });
  out += `</g>`;

  if (totals.every((t) => t === 0)) {
    out += text(spec.emptyMessage, { class: "dw-muted", x: left + plotWidth / 2, y: top + plotHeight / 2, "font-size": FONT_SIZE, "text-anchor": "middle" });
  }
  return `${out}</svg>`;
}

/** "dev 14, staging 13" for the description, biggest first, ties in the given order. */
export function breakdown(entries: readonly { label: string; value: number }[]): string {
  return entries
    .map((e, i) => ({ ...e, i }))
    .filter((e) => e.value > 0)
    .sort((a, b) => b.value - a.value || a.i - b.i)
    .map((e) => `${e.label} ${num(e.value)}`)
    .join(", ");
}
