// The delivery loop of the outbox: lease due deliveries, send each, record
// the outcome.
//
// Why this is exactly once for a receiver, and what that honestly means:
// sending (HTTP, SMTP) and marking the row sent cannot share a transaction,
// so one of them comes first. Marking first could lose a notification on a
// crash; sending first can repeat one. Driftwatch sends first:
//   - a delivery is leased (leased_until) before it is sent; a lease outlasts
//     the send timeouts, and other workers skip leased rows;
//   - after a successful send, the row is marked sent in a statement of its
//     own (the same transaction as nothing else), fenced by our lease;
//   - a crash between send and mark leaves the row pending and leased; once
//     the lease runs out it is sent again.
// So delivery is at least once, never lost across restarts, and every attempt
// of one delivery carries the same X-Driftwatch-Delivery id (and e-mail the
// same Message-ID): a receiver that drops ids it has seen gets each event once.
import { listNotificationRulesById } from "@/lib/db/queries/notification-rules/list-notification-rules-by-id";
import { markDeliveryFailed, markDeliveryRetry, markDeliverySent } from "@/lib/db/queries/notifications/finish-delivery";
import { leaseDueDeliveries as leaseDeliveries, type LeasedDelivery } from "@/lib/db/queries/notifications/lease-due-deliveries";
import { listEventPayloads } from "@/lib/db/queries/notifications/list-event-payloads";
import type { Config } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { sendNotification, type DeliveryResult, type SendNotificationInput } from "@/lib/adapters/channels";
import { payloadForRule, planNextAttempt, type NotificationPayload } from "@/lib/domain/notifications";
import type { Resolve } from "@/lib/net/destination";

/** Longer than any send can take (HTTP 10 s, SMTP up to 20 s) times the rounds of one batch. */
export const LEASE_MS = 5 * 60_000;
const MAX_DUE_AHEAD_MS = 25 * 3_600_000;
const BATCH = 25;
const CONCURRENCY = 5;
/**
 * One call keeps leasing batches while deliveries are due, for at most this
 * long (the scheduler ticks each minute), so a fleet that opens thousands of
 * drifts at once drains in minutes rather than one batch a tick.
 */
const TIME_BUDGET_MS = 45_000;

/** A tick's context, with the seams tests use. */
export type DeliverCtx = {
  db: Db;
  config: Pick<Config, "smtpUrl">;
  now: Date;
  /** Defaults to sendNotification; tests put a crash between send and mark here. */
  send?: (input: SendNotificationInput) => Promise<DeliveryResult>;
  resolve?: Resolve;
  /** Jitter source for the back-off. */
  random?: () => number;
};

export type DeliverOptions = {
  /** Only this workspace's deliveries (tests; one worker per tenant). */
  workspaceId?: string;
  limit?: number;
  leaseMs?: number;
  /** Stop leasing new batches after this long (default 45 s). */
  budgetMs?: number;
};

export type DeliverResult = { leased: number; sent: number; retried: number; failed: number };

type Leased = LeasedDelivery;

export async function leaseDueDeliveries(deps: Pick<DeliverCtx, "db" | "config">, now: Date, opts: DeliverOptions = {}): Promise<Leased[]> {
  const until = new Date(now.getTime() + (opts.leaseMs ?? LEASE_MS));
  // Retries are at most a day away and a lease lasts minutes: anything later was set by a clock since set back.
  const farAhead = new Date(now.getTime() + MAX_DUE_AHEAD_MS);
  // Another worker's lease taken a moment ago may end a little after ours would (its clock read later):
  // only one further ahead than any lease reaches, even across some skew, was set by a clock since set back.
  const fromSetBackClock = new Date(now.getTime() + 2 * Math.max(LEASE_MS, opts.leaseMs ?? 0));
  // A worker without SMTP leaves e-mail to one that has it (the rule could not have been made without it).
  const hasSmtp = Boolean(deps.config.smtpUrl);
  const workspaceId = opts.workspaceId ?? null;
  return leaseDeliveries(deps.db, { now, until, farAhead, fromSetBackClock }, { hasSmtp, workspaceId, limit: opts.limit ?? BATCH });
}

// A run lasts up to the time budget, so its clock moves on from the tick's instant.
type DeliverDeps = Omit<DeliverCtx, "now"> & { now: () => Date };

export async function deliverDue({ ctx, input: opts = {} }: { ctx: DeliverCtx; input?: DeliverOptions }): Promise<DeliverResult> {
  const total: DeliverResult = { leased: 0, sent: 0, retried: 0, failed: 0 };
  const started = performance.now();
  const deps: DeliverDeps = { ...ctx, now: () => new Date(ctx.now.getTime() + (performance.now() - started)) };
  while (performance.now() - started < (opts.budgetMs ?? TIME_BUDGET_MS)) {
    const leased = await leaseDueDeliveries(deps, deps.now(), opts);
    total.leased += leased.length;
    if (leased.length === 0) break;
    const [rules, events] = await Promise.all([
      listNotificationRulesById(deps.db, [...new Set(leased.map((d) => d.rule_id))]),
      listEventPayloads(deps.db, [...new Set(leased.map((d) => d.event_id))]),
    ]);
    const ruleBy = new Map(rules.map((r) => [r.id, r] as const));
    const eventBy = new Map(events.map((e) => [e.id, e.payload as NotificationPayload] as const));
    const queue = [...leased];
    await Promise.all(
      Array.from({ length: Math.min(CONCURRENCY, queue.length) }, async () => {
        for (let d = queue.shift(); d; d = queue.shift()) {
          const outcome = await deliverOne(deps, d, ruleBy.get(d.rule_id), eventBy.get(d.event_id));
          total[outcome]++;
        }
      }),
    );
    if (leased.length < (opts.limit ?? BATCH)) break;
  }
  return total;
}

type RuleRow = { channel: string; config: unknown; allowPrivate: boolean; enabled: boolean; events: string[]; kinds: string[]; services: string[]; environments: string[]; teams: string[] };

async function deliverOne(deps: DeliverDeps, d: Leased, rule: RuleRow | undefined, payload: NotificationPayload | undefined): Promise<"sent" | "retried" | "failed"> {
  const now = deps.now();
  if (!rule || !payload || !rule.enabled) {
    await markFailed(deps.db, d, rule?.enabled === false ? "The rule was disabled before this was sent." : "The event or rule is gone.");
    return "failed";
  }
  const forRule = payloadForRule(rule, payload);
  if (forRule === null) {
    await markFailed(deps.db, d, "The rule no longer matches this event.");
    return "failed";
  }
  const send = deps.send ?? sendNotification;
  const result = await send({
    channel: rule.channel, config: rule.config, payload: forRule, deliveryId: d.id, now,
    smtpUrl: deps.config.smtpUrl, allowPrivate: rule.allowPrivate, resolve: deps.resolve,
  });
  if (result.ok) {
    // Its own statement, committed at once: nothing else rides on it.
    await markDeliverySent(deps.db, d, now, result.warning ?? null);
    return "sent";
  }
  const next = planNextAttempt({ attempts: d.attempts, firstAttemptAt: d.created_at, now, failure: result, jitter: (deps.random ?? Math.random)() });
  if (next.action === "retry") {
    await markDeliveryRetry(deps.db, d, next.nextAttemptAt, result.error);
    return "retried";
  }
  const why = next.reason === "expired" ? `${result.error} (gave up after a day of retries)` : result.error;
  await markFailed(deps.db, d, why);
  return "failed";
}

async function markFailed(db: Db, d: Leased, error: string): Promise<void> {
  await markDeliveryFailed(db, d, error);
}
