// The built-in catalog of popular charts: where a chart of that name is published, for releases
// whose service's policy names no `chart_repository`. Entries with `home_host` match only charts
// whose Chart.yaml `home` is on that host (one publisher among several of a name).
import { z } from "zod";
import { chartKeyOf, parseChartRepository } from "@/lib/domain/charts";
import chartsJson from "./charts.json";

const chartEntrySchema = z
  .object({
    chart: z.string().regex(/^[a-z0-9][a-z0-9.-]*$/),
    repository: z.string().refine((r) => parseChartRepository(r) !== null && (r.startsWith("https://") || r.startsWith("oci://")), { message: "must be an https:// or oci:// chart repository" }),
    home_host: z.string().regex(/^[a-z0-9.-]+$/).optional(),
  })
  .strict();

export type ChartCatalogEntry = z.infer<typeof chartEntrySchema>;

let memo: readonly ChartCatalogEntry[] | null = null;

export function loadChartCatalog(): readonly ChartCatalogEntry[] {
  if (memo) return memo;
  const parsed = z.array(chartEntrySchema).safeParse(chartsJson);
  if (!parsed.success) throw new Error(`Invalid built-in chart catalog at ${parsed.error.issues[0]?.path.join(".")}: ${parsed.error.issues[0]?.message}`);
  memo = parsed.data;
  return memo;
}

const hostOf = (url: string | null | undefined): string | null => {
  if (!url) return null;
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
};

/** The chart key the catalog gives a chart (by name, and publisher where names clash), or null. */
export function catalogChartKey(chart: { name: string; home?: string | null }): string | null {
  const home = hostOf(chart.home);
  const entries = loadChartCatalog().filter((e) => e.chart === chart.name);
  const entry = entries.find((e) => e.home_host && home && (home === e.home_host || home.endsWith(`.${e.home_host}`))) ?? entries.find((e) => !e.home_host);
  return entry ? chartKeyOf(entry.repository, chart.name) : null;
}

/** Hosts of the catalog's classic repositories: the server may fetch their index.yaml. */
export function catalogChartHosts(): ReadonlySet<string> {
  return new Set(loadChartCatalog().flatMap((e) => (e.repository.startsWith("https://") ? [new URL(e.repository).host] : [])));
}
