// The upstream state of a service's repository as pages, the API, the badge
// and /metrics show it: checked_at is the last good check, last_error the last
// failure (cleared by a success).
import { deriveUpstreamState, STALE_AFTER_INTERVALS, type UpstreamStatus } from "@/lib/domain/upstream";

const HOUR = 3_600_000;

export type UpstreamCheckRow = { checkedBy: "server" | "agent"; checkedAt: Date | null; lastError: string | null };

/** Agents report private repositories on their own rhythm: a day between reports is still fresh. */
export function checkIntervalOf(checkedBy: "server" | "agent"): number {
  return checkedBy === "agent" ? 24 * HOUR : HOUR;
}

export function upstreamStatusOf(row: UpstreamCheckRow | null | undefined, now: Date): UpstreamStatus {
  if (!row) return { state: "unchecked", error: null, ageMs: null };
  // Handed to the agents and none has reported it yet: not a failure, not known either.
  if (row.checkedBy === "agent" && row.checkedAt === null) return { state: "unchecked", error: row.lastError, ageMs: null };
  return deriveUpstreamState({ lastAttemptAt: null, lastSuccessAt: row.checkedAt, lastError: row.lastError }, { checkIntervalMs: checkIntervalOf(row.checkedBy), now });
}

/** `docker.io/library/nginx` → `docker.io`. */
export function registryHostOf(repositoryKey: string): string {
  return repositoryKey.split("/", 1)[0] ?? repositoryKey;
}

/**
 * The first instant at which one of these repositories turns stale by the clock alone: a cached
 * result that shows upstream states must be recomputed then.
 */
export function nextUpstreamStaleAt(rows: Iterable<UpstreamCheckRow | null | undefined>): number | null {
  let next: number | null = null;
  for (const row of rows) {
    if (!row?.checkedAt) continue;
    const at = row.checkedAt.getTime() + STALE_AFTER_INTERVALS * checkIntervalOf(row.checkedBy) + 1;
    if (next === null || at < next) next = at;
  }
  return next;
}

