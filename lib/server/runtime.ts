// How the long-running processes (`driftwatch start`, `driftwatch worker`) set
// up the JavaScript runtime for a small, steady memory footprint.
import v8 from "node:v8";

/**
 * How far V8 lets the old generation grow past what survived the last full
 * collection before collecting again. A whole-fleet computation's intermediates
 * live long enough to leave the young generation, so V8's own choice lets the heap
 * grow to several times its live size under load; a small step keeps it near the
 * live size, for more (concurrent) full collections. 0 leaves it to V8.
 */
export const DEFAULT_HEAP_GROWTH_PERCENT = 35;

export function heapGrowthPercent(env: Record<string, string | undefined> = process.env): number {
  const raw = env.DRIFTWATCH_HEAP_GROWTH_PERCENT;
  if (raw === undefined || raw.trim() === "") return DEFAULT_HEAP_GROWTH_PERCENT;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 300) throw new Error(`DRIFTWATCH_HEAP_GROWTH_PERCENT must be a whole number from 0 to 300 (0: V8's own choice), got ${JSON.stringify(raw)}`);
  return n;
}

export function tuneRuntime(env: Record<string, string | undefined> = process.env): void {
  const growth = heapGrowthPercent(env);
  if (growth > 0) v8.setFlagsFromString(`--heap-growing-percent=${growth}`);
}
