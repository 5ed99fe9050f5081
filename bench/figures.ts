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
