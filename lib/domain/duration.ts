// Durations as users write them: `15m`, `72h`, `7d`, `2w`, `90s`; also compound `1h30m`.
const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;
const DURATION_RE = /^(?:\d{1,7}[smhdw])+$/;

/** Milliseconds for a duration string, or null when it is not one. */
export function parseDuration(input: string): number | null {
  const text = input.trim().toLowerCase();
  if (!DURATION_RE.test(text)) return null;
  let total = 0;
  for (const [, n, unit] of text.matchAll(/(\d+)([smhdw])/g)) {
    total += Number(n) * UNIT_MS[unit as keyof typeof UNIT_MS];
  }
  return total > 0 ? total : null;
}

/** The largest whole unit that expresses `ms` exactly: 604800000 → `7d`. */
export function formatDuration(ms: number): string {
  for (const unit of ["w", "d", "h", "m", "s"] as const) {
    if (ms % UNIT_MS[unit] === 0) {
      const n = ms / UNIT_MS[unit];
      return unit === "w" ? `${n * 7}d` : `${n}${unit}`;
    }
  }
  return `${Math.round(ms / 1000)}s`;
}
