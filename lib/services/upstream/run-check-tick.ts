// The scheduler's check tick: lease the repositories that are due (several
// workers split them with FOR UPDATE SKIP LOCKED, so none is checked twice),
// check them with bounded concurrency, and report what happened.
import type { Db } from "@/lib/db/client";
import { leaseDueRepositories as leaseDue } from "@/lib/db/queries/upstream/lease-due-repositories";
import { releaseFailedCheck } from "@/lib/db/queries/upstream/release-failed-check";
import { checkRepository, type CheckDeps, type CheckOutcome } from "./check-repository";
import { readDueSourceLabels, type LabelTickResult } from "./read-source-labels";
import { syncEol } from "./sync-eol";
import { wakeQuotaWaiters } from "./wake-quota-waiters";

const LEASE_MS = 5 * 60_000;
/** A check that threw (not a registry failure, which check-repository schedules itself) is retried after this. */
const RETRY_AFTER_ERROR_MS = 60_000;
/**
 * Nothing is scheduled further ahead than a day (the longest back-off or Retry-After) and a lease lasts
 * five minutes: a due time or lease beyond that was set by a clock that has since been set back, and
 * counts as due (expired) rather than holding the repository for as long as the clock was off.
 */
const MAX_DUE_AHEAD_MS = 25 * 3_600_000;

export type TickResult = { leased: number; outcomes: CheckOutcome[]; eolRequests: number; labels: LabelTickResult & { error?: string } };

/** Take up to `limit` due, server-checked repositories for this worker. */
export async function leaseDueRepositories(db: Db, now: Date, limit: number): Promise<string[]> {
  const leaseUntil = new Date(now.getTime() + LEASE_MS);
  const farAhead = new Date(now.getTime() + MAX_DUE_AHEAD_MS);
  // A lease another scheduler took a moment ago may end a little after ours would (its clock read later):
  // only one further ahead than a lease can reach, even across some skew, was set by a clock since set back.
  const leaseFromSetBackClock = new Date(now.getTime() + 2 * LEASE_MS);
  return leaseDue(db, { now, leaseUntil, farAhead, leaseFromSetBackClock }, limit);
}

export async function runCheckTick(deps: CheckDeps, opts: { limit?: number; concurrency?: number; labelLimit?: number } = {}): Promise<TickResult> {
  // What waits for a pull budget that has since grown (a sign-in, a mirror) is due now.
  await wakeQuotaWaiters(deps).catch(() => {});
  const ids = await leaseDueRepositories(deps.db, deps.now, opts.limit ?? 200);
  const outcomes: CheckOutcome[] = [];
  const queue = [...ids];
  const workers = Array.from({ length: Math.min(opts.concurrency ?? 8, queue.length) }, async () => {
    for (let id = queue.shift(); id; id = queue.shift()) {
      try {
        outcomes.push(await checkRepository(deps, id));
      } catch (err) {
        // Not due again at once: another scheduler's tick this minute would check it a second time.
        const error = (err as Error).message;
        outcomes.push({ status: "failed", host: "", error, retryInMs: RETRY_AFTER_ERROR_MS });
        await releaseFailedCheck(deps.db, id, new Date(deps.now.getTime() + RETRY_AFTER_ERROR_MS), error).catch(() => {});
      }
    }
  });
  await Promise.all(workers);
  // After the checks: their digest resolutions come before labels in the pull budget.
  const labels = await readDueSourceLabels(deps, { limit: opts.labelLimit }).catch((err: unknown) => ({ read: 0, waiting: 0, failed: 0, no_tag: 0, error: (err as Error).message }));
  const eol = await syncEol(deps).catch(() => ({ requests: 0 }));
  return { leased: ids.length, outcomes, eolRequests: eol.requests, labels };
}
