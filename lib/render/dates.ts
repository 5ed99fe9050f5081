// UTC date formatting, written out by hand so that output never depends on
// the server's locale or time zone.

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;

const pad = (n: number) => String(n).padStart(2, "0");

/** `2026-11-02` */
export function formatUtcDate(date: Date): string {
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

/** `2026-11-02 08:00` (UTC, minutes) */
export function formatUtcMinute(date: Date): string {
  return `${formatUtcDate(date)} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}`;
}

/** `Nov 2` */
export function formatShortDay(date: Date): string {
  return `${MONTHS[date.getUTCMonth()] ?? ""} ${date.getUTCDate()}`;
}

/** `Nov 2 06:00` */
export function formatShortHour(date: Date): string {
  return `${formatShortDay(date)} ${pad(date.getUTCHours())}:00`;
}

/** Parses `YYYY-MM-DD` as midnight UTC; null for anything else. */
export function parseUtcDay(day: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (match === null) return null;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return formatUtcDate(date) === day ? date : null;
}
