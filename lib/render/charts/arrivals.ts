// Delivery page: versions that arrived in each environment, per week, over
// the last twelve weeks (spec "Delivery" item 4). Stacked in pipeline order.
import { formatShortDay, parseUtcDay } from "@/lib/render/dates";
import { plural } from "@/lib/render/svg";
import { seriesToken } from "@/lib/render/theme";
import type { ChartOptions } from "./frame";
import { breakdown, renderStackedBars } from "./stacked-bars";

export type ArrivalsInput = {
  weeks: readonly { weekStart: string; byEnvironment: Readonly<Record<string, number>> }[];
  /** Pipeline order; environments found only in the data follow, alphabetically. */
  environments: readonly string[];
};

const count = (v: number | undefined) => (v !== undefined && Number.isFinite(v) && v > 0 ? v : 0);

export function renderArrivalsChart(input: ArrivalsInput, options: ChartOptions = {}): string {
  const weeks = [...input.weeks].sort((a, b) => (a.weekStart < b.weekStart ? -1 : a.weekStart > b.weekStart ? 1 : 0));
  const extra = new Set<string>();
  for (const week of weeks) for (const env of Object.keys(week.byEnvironment)) if (!input.environments.includes(env)) extra.add(env);
  const environments = [...new Set(input.environments), ...[...extra].sort()];

  const values = weeks.map((w) => environments.map((env) => count(w.byEnvironment[env])));
  const perEnvironment = environments.map((env, e) => ({ label: env, value: values.reduce((sum, row) => sum + (row[e] ?? 0), 0) }));
  const total = perEnvironment.reduce((sum, e) => sum + e.value, 0);
  const weekTotals = values.map((row) => row.reduce((a, b) => a + b, 0));
  const busiest = weekTotals.reduce((best, t, i) => (t > (weekTotals[best] ?? 0) ? i : best), 0);

  const first = weeks[0]?.weekStart;
  const last = weeks[weeks.length - 1]?.weekStart;
  const span = first === undefined || last === undefined ? "no weeks" : `${weeks.length} weeks from the week of ${first} to the week of ${last}`;
  const desc =
    total === 0
      ? `Stacked bars over ${span}. No versions arrived.`
      : `Stacked bars over ${span}, one colour per environment. ${plural(total, "version")} arrived in all: ${breakdown(perEnvironment)}. ` +
        `Busiest: the week of ${weeks[busiest]?.weekStart ?? ""} with ${weekTotals[busiest] ?? 0}.`;

  return renderStackedBars({
    root: "dw-arrivals",
    id: options.id ?? "dw-arrivals",
    theme: options.theme ?? "auto",
    width: options.width ?? 720,
    height: 280,
    title: options.title ?? "Versions arrived per week and environment",
    desc,
    unit: "versions",
    emptyMessage: "No versions arrived in these weeks",
    categories: weeks.map((w) => {
      const day = parseUtcDay(w.weekStart);
      return { label: day === null ? w.weekStart : formatShortDay(day) };
    }),
    series: environments.map((env, i) => ({ label: env, colour: seriesToken(i) })),
    values,
    barTitle: (c, s, v) => `${environments[s] ?? ""}, week of ${weeks[c]?.weekStart ?? ""}: ${plural(v, "version")}`,
  });
}
