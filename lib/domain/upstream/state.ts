// What Driftwatch knows about a repository's upstream: the last check
// succeeded (`ok`), failed, has not succeeded for too long (`stale`), or never
// ran. Nothing that is not `ok` may be shown or badged as up to date.
import { formatAge } from "@/lib/domain/words";

export const UPSTREAM_STATES = ["ok", "failed", "stale", "unchecked"] as const;
export type UpstreamState = (typeof UPSTREAM_STATES)[number];

/** How many check intervals may pass without a successful check before what it learned is stale. */
export const STALE_AFTER_INTERVALS = 3;

export type UpstreamCheckRecord = {
  /** When the last check finished, whatever its outcome; null when unknown (then lastError decides). */
  lastAttemptAt: Date | null;
  lastSuccessAt: Date | null;
  /** The last attempt's failure, one line; null when it succeeded. */
  lastError: string | null;
};

export type UpstreamStatus = {
  state: UpstreamState;
  /** One line a user understands; null when `ok` or `unchecked`. */
  error: string | null;
  /** Age of what the last good check learned, null when there was none. */
  ageMs: number | null;
};

/**
 * The upstream state of one repository. A failure wins over staleness: it says
 * why. An error older than the last success is left over and ignored.
 */
export function deriveUpstreamState(record: UpstreamCheckRecord, opts: { checkIntervalMs: number; now: Date }): UpstreamStatus {
  const { lastAttemptAt, lastSuccessAt } = record;
  const ageMs = lastSuccessAt === null ? null : Math.max(0, opts.now.getTime() - lastSuccessAt.getTime());
  const isLeftOver = lastSuccessAt !== null && lastAttemptAt !== null && lastAttemptAt <= lastSuccessAt;
  const error = record.lastError === null ? null : firstLine(record.lastError);
  if (error !== null && error !== "" && !isLeftOver) return { state: "failed", error, ageMs };
  if (lastSuccessAt === null || ageMs === null) return { state: "unchecked", error: null, ageMs: null };
  if (ageMs > STALE_AFTER_INTERVALS * opts.checkIntervalMs) {
    return { state: "stale", error: `no successful check for ${formatAge(ageMs)}`, ageMs };
  }
  return { state: "ok", error: null, ageMs };
}

/** Whether a state lets a page or badge say "up to date". */
export function isUpstreamKnown(state: UpstreamState): boolean {
  return state === "ok";
}

const MAX_LINE = 200;

function firstLine(text: string): string {
  const line = text.split(/\r?\n/, 1)[0]?.trim() ?? "";
  return line.length > MAX_LINE ? `${line.slice(0, MAX_LINE - 1)}…` : line;
}
