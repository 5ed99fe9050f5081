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

/** Human wording of an elapsed time: `3d 4h`, `45m`, `12s`. */
export function humanizeDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const d = Math.floor(s / 86_400), h = Math.floor((s % 86_400) / 3_600), m = Math.floor((s % 3_600) / 60);
  if (d > 0) return h > 0 ? `${d}d ${h}h` : `${d}d`;
  if (h > 0) return m > 0 ? `${h}h ${m}m` : `${h}h`;
  if (m > 0) return `${m}m`;
  return `${s}s`;
}
