// "Nice" axis ticks (1, 2, 2.5, 5 × 10^n steps) covering a data range, and
// time ticks aligned to whole UTC hours and days.

export type Ticks = { min: number; max: number; step: number; values: number[] };

const NICE_STEPS = [1, 2, 2.5, 5, 10] as const;

/**
 * Ticks from `min` to at least `max`, about `count` of them. With `integer`
 * (counts of things) the step is a whole number, so no tick reads "0.5 versions".
 */
export function niceTicks(min: number, max: number, count = 5, options: { integer?: boolean } = {}): Ticks {
  const lo = Number.isFinite(min) ? min : 0;
  let hi = Number.isFinite(max) ? max : 0;
  if (hi <= lo) hi = lo + 1;
  const rough = (hi - lo) / Math.max(1, count - 1);
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  let step = (NICE_STEPS.find((s) => s * magnitude >= rough) ?? 10) * magnitude;
  if (options.integer === true) step = Math.max(1, Math.ceil(step));
  const decimals = Math.max(0, -Math.floor(Math.log10(step)) + 1);
  const round = (v: number) => Number(v.toFixed(decimals));
  const first = round(Math.floor(lo / step) * step);
  const last = round(Math.ceil(hi / step) * step);
  const values: number[] = [];
  for (let i = 0; ; i++) {
    const v = round(first + i * step);
    if (v > last + step / 1e6) break;
    values.push(v);
  }
  return { min: first, max: last, step, values };
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const TIME_STEPS = [HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, DAY, 2 * DAY, 7 * DAY, 14 * DAY, 28 * DAY] as const;

/** Tick instants within [from, to], on whole UTC hours or days, at most `maxCount` of them. */
export function timeTicks(from: Date, to: Date, maxCount: number): { step: number; values: Date[] } {
  const start = from.getTime();
  const end = to.getTime();
  const span = Math.max(end - start, 1);
  const step = TIME_STEPS.find((s) => span / s <= Math.max(1, maxCount)) ?? 28 * DAY;
  const values: Date[] = [];
  // Weekly steps start on a Monday (1970-01-05 was one), shorter ones on the hour or day.
  const origin = step >= 7 * DAY ? 4 * DAY : 0;
  for (let t = Math.ceil((start - origin) / step) * step + origin; t <= end; t += step) values.push(new Date(t));
  return { step, values };
}

export const MS_PER_DAY = DAY;
export const MS_PER_HOUR = HOUR;
