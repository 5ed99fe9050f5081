// One measured figure in `npm run bench`: printed with its target and PASS/FAIL,
// and written to bench/results/latest.json.
import os from "node:os";
export type Figure = {
  /** Stable identifier, e.g. `versions.newest_10k_tags.median_ms`. */
  name: string;
  value: number;
  unit: string;
  /** Human wording of the target, e.g. `< 5 ms`; empty when informational. */
  target: string;
  /** null when the figure is informational only. */
  pass: boolean | null;
  note?: string;
  /** Fleet size (services) the figure was measured at; absent for fleet-independent figures. */
  size?: number;
  /** 1-minute load average of the (shared) machine when the figure was measured. */
  load?: number;
  /** How fast the machine ran just before the figure's section (machineSpeed, millions of tags parsed a second). */
  speed?: number;
  /** Listed in the growth table: "lower" when a smaller value is better (latency, MB), "higher" for throughput. */
  scale?: "lower" | "higher";
};

/** The 1-minute load average, rounded: printed next to figures because the machine is shared. */
export function loadNow(): number {
  return Math.round(os.loadavg()[0]! * 100) / 100;
}

/** Median of a list of numbers (sorted copy). */
export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Nearest-rank percentile (p in 0..100). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

/** Prints rows as aligned columns; the last column is left ragged. */
export function table(rows: string[][], rightAlign: Set<number> = new Set()): void {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  for (const r of rows) console.log(r.map((c, i) => (i === r.length - 1 ? c : rightAlign.has(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join("  ").trimEnd());
}

export type GrowthRow = { name: string; unit: string; values: Record<number, number>; factors: { from: number; to: number; factor: number; limit: number; verdict: "ok" | "super-linear" | "FAIL" | "noise" }[] };

/**
 * How each figure's cost grows between consecutive sizes: value ratio for
 * "lower is better" figures, inverse ratio for throughput. Limit: 1.125 × the
 * size ratio (4.5× for 2,000 → 8,000). Above the size ratio is super-linear.
 * Latencies under 20 ms at both sizes are marked noise, not judged.
 */
export function growth(bySize: Map<number, Figure[]>): GrowthRow[] {
  const sizes = [...bySize.keys()].sort((a, b) => a - b);
  const names = new Map<string, Figure>();
  for (const figs of bySize.values()) for (const f of figs) if (f.scale && !names.has(f.name)) names.set(f.name, f);
  const rows: GrowthRow[] = [];
  for (const [name, sample] of names) {
    const values: Record<number, number> = {};
    for (const size of sizes) {
      const f = bySize.get(size)!.find((x) => x.name === name);
      if (f && Number.isFinite(f.value)) values[size] = f.value;
    }
    const present = sizes.filter((s) => values[s] !== undefined);
    if (present.length < 2) continue;
    const factors: GrowthRow["factors"] = [];
    for (let i = 1; i < present.length; i++) {
      const from = present[i - 1]!;
      const to = present[i]!;
      const a = values[from]!;
      const b = values[to]!;
      const factor = sample.scale === "higher" ? a / Math.max(b, 1e-9) : b / Math.max(a, 1e-9);
      const sizeRatio = to / from;
      const limit = 1.125 * sizeRatio;
      const noise = sample.unit === "ms" && Math.max(a, b) < 20;
      factors.push({ from, to, factor: Math.round(factor * 100) / 100, limit, verdict: noise ? "noise" : factor > limit ? "FAIL" : factor > sizeRatio ? "super-linear" : "ok" });
    }
    rows.push({ name, unit: sample.unit, values, factors });
  }
  return rows;
}

export function printGrowth(rows: GrowthRow[], sizes: number[]) {
  if (!rows.length) return;
  const pairs = sizes.slice(1).map((to, i) => `${sizes[i]}→${to}`);
  const header = ["figure", ...sizes.map((s) => `@${s}`), ...pairs.map((p) => `×${p}`), "verdict"];
  const body = rows.map((r) => {
    const cells = sizes.map((s) => (r.values[s] === undefined ? "—" : `${r.values[s]}`));
    const fs = pairs.map((_, i) => {
      const f = r.factors.find((x) => x.from === sizes[i] && x.to === sizes[i + 1]);
      return f ? `${f.factor.toFixed(2)}` : "—";
    });
    const flagged = r.factors.filter((f) => f.verdict === "FAIL" || f.verdict === "super-linear").map((f) => `${f.verdict === "FAIL" ? "FAIL" : "super-linear"} ${f.from}→${f.to}`);
    const worst = flagged.length ? flagged.join(", ") : r.factors.every((f) => f.verdict === "noise") ? "noise (< 20 ms)" : "ok";
    return [`${r.name} (${r.unit})`, ...cells, ...fs, worst];
  });
  table([header, ...body], new Set(Array.from({ length: sizes.length + pairs.length }, (_, i) => i + 1)));
}
