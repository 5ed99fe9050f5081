// Delivery page: open drift per day, stacked by kind, over the last thirty
// days (spec "Delivery" item 4).
import { DRIFT_KINDS, type DriftKind } from "@/lib/domain/policy";
import { formatShortDay, parseUtcDay } from "@/lib/render/dates";
import { DRIFT_KIND_NAME, inSentence } from "@/lib/domain/words";
import { plural } from "@/lib/render/svg";
import { DRIFT_KIND_TOKENS } from "@/lib/render/theme";
import type { ChartOptions } from "./frame";
import { breakdown, renderStackedBars } from "./stacked-bars";

export type DriftTrendInput = {
  days: readonly { date: string; byKind: Readonly<Partial<Record<DriftKind, number>>> }[];
};

/** Legend words for the kinds, in the spec's order. */
export const DRIFT_KIND_LABELS = Object.fromEntries(DRIFT_KINDS.map((k) => [k, inSentence(DRIFT_KIND_NAME[k])])) as Record<DriftKind, string>;

const count = (v: number | undefined) => (v !== undefined && Number.isFinite(v) && v > 0 ? v : 0);

export function renderDriftTrendChart(input: DriftTrendInput, options: ChartOptions = {}): string {
  const days = [...input.days].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const values = days.map((d) => DRIFT_KINDS.map((kind) => count(d.byKind[kind])));
  const dayTotals = values.map((row) => row.reduce((a, b) => a + b, 0));
  const peak = dayTotals.reduce((best, t, i) => (t > (dayTotals[best] ?? 0) ? i : best), 0);
  const lastIndex = days.length - 1;
  const lastRow = values[lastIndex] ?? [];

  const first = days[0]?.date;
  const last = days[lastIndex]?.date;
  const span = first === undefined || last === undefined ? "no days" : `${days.length} days from ${first} to ${last}`;
  const latest = breakdown(DRIFT_KINDS.map((kind, k) => ({ label: DRIFT_KIND_LABELS[kind], value: lastRow[k] ?? 0 })));
  const desc = dayTotals.every((t) => t === 0)
    ? `Stacked bars over ${span}. No drift was open.`
    : `Stacked bars over ${span}, one colour per drift kind. ` +
      `On ${last ?? ""}: ${plural(dayTotals[lastIndex] ?? 0, "open drift")}${latest === "" ? "" : ` (${latest})`}. ` +
      `Most: ${dayTotals[peak] ?? 0} on ${days[peak]?.date ?? ""}.`;

  return renderStackedBars({
    root: "dw-drift-trend",
    id: options.id ?? "dw-drift-trend",
    theme: options.theme ?? "auto",
    width: options.width ?? 720,
    height: 260,
    title: options.title ?? "Open drift per day by kind",
    desc,
    unit: "open drifts",
    emptyMessage: "No drift was open in these days",
    categories: days.map((d) => {
      const day = parseUtcDay(d.date);
      return { label: day === null ? d.date : formatShortDay(day) };
    }),
    series: DRIFT_KINDS.map((kind) => ({ label: DRIFT_KIND_LABELS[kind], colour: DRIFT_KIND_TOKENS[kind] })),
    values,
    barTitle: (c, s, v) => `${DRIFT_KIND_LABELS[DRIFT_KINDS[s] ?? "env"]}, ${days[c]?.date ?? ""}: ${plural(v, "open drift")}`,
  });
}
