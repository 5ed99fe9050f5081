// Dates and times as the pages show them: UTC, locale-independent, with a
// relative form for "how long ago" and the exact time kept for a tooltip.
import { formatAgeSince, formatAgo } from "@/lib/domain/words";
import { formatUtcDate, formatUtcMinute } from "@/lib/render/dates";

/** `14:05 UTC` (rounded up to five minutes: an estimate), with the date when it is not today. */
export function formatClock(iso: string | Date, now: Date = new Date()): string {
  const d = new Date(Math.ceil(new Date(iso).getTime() / 300_000) * 300_000);
  const text = formatWhen(d);
  return formatUtcDate(d) === formatUtcDate(now) ? text.slice(text.indexOf(" ") + 1) : text;
}

/** `2026-11-02 08:00 UTC`, or the fallback for null. */
export function formatWhen(iso: string | Date | null | undefined, fallback = "never"): string {
  if (!iso) return fallback;
  const d = typeof iso === "string" ? new Date(iso) : iso;
  return Number.isNaN(d.getTime()) ? fallback : `${formatUtcMinute(d)} UTC`;
}

export function formatDay(iso: string | Date | null | undefined, fallback = "—"): string {
  if (!iso) return fallback;
  const d = typeof iso === "string" ? new Date(iso) : iso;
  return Number.isNaN(d.getTime()) ? fallback : formatUtcDate(d);
}

/** `3 days ago`, `just now`, or the fallback for null. */
export function timeAgo(iso: string | Date | null | undefined, now: Date, fallback = "never"): string {
  if (!iso) return fallback;
  const d = typeof iso === "string" ? new Date(iso) : iso;
  return Number.isNaN(d.getTime()) ? fallback : formatAgo(d, now);
}

/** `3 days 4 hours`: how long something has lasted. */
export function lasted(iso: string | Date, now: Date): string {
  const d = typeof iso === "string" ? new Date(iso) : iso;
  return formatAgeSince(d, now);
}

/** How long since `at` in words, as a `<time>` with the exact UTC time on hover: every age on the pages. */
export function Age({ at, now, prefix = "" }: { at: string | Date; now: Date; prefix?: string }) {
  const d = typeof at === "string" ? new Date(at) : at;
  return (
    <time dateTime={d.toISOString()} title={formatWhen(d)} className="age">
      {prefix}{formatAgeSince(d, now)}
    </time>
  );
}

/** A `<time>` element: relative text, exact UTC time on hover and for machines. */
export function When({ at, now, fallback = "never" }: { at: string | Date | null | undefined; now: Date; fallback?: string }) {
  if (!at) return <span className="muted">{fallback}</span>;
  const d = typeof at === "string" ? new Date(at) : at;
  return (
    <time dateTime={d.toISOString()} title={formatWhen(d)}>
      {timeAgo(d, now, fallback)}
    </time>
  );
}
