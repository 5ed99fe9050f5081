// Dates and times as the pages show them: UTC, locale-independent, with a
// relative form for "how long ago" and the exact time kept for a tooltip.
import { humanizeDuration } from "@/lib/domain/duration";
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

/** `3d 4h ago`, `just now`, or the fallback for null. */
export function timeAgo(iso: string | Date | null | undefined, now: Date, fallback = "never"): string {
  if (!iso) return fallback;
  const d = typeof iso === "string" ? new Date(iso) : iso;
  const ms = now.getTime() - d.getTime();
  if (Number.isNaN(ms)) return fallback;
  if (ms < 60_000) return "just now";
  return `${humanizeDuration(ms).split(" ")[0]} ago`;
}

/** `for 3d`: how long something has lasted. */
export function lasted(iso: string | Date, now: Date): string {
  const d = typeof iso === "string" ? new Date(iso) : iso;
  return humanizeDuration(Math.max(0, now.getTime() - d.getTime()));
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
