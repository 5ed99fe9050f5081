// Fan-out of the outbox: every event not routed yet becomes one Delivery per
// matching enabled rule, and is marked routed, in one transaction. Several
// workers split the events with FOR UPDATE SKIP LOCKED; the unique
// (event, rule) pair makes a repeated fan-out harmless.
import { listEnabledRuleFilters } from "@/lib/db/queries/notification-rules/list-enabled-rule-filters";
import { createDeliveries } from "@/lib/db/queries/notifications/create-deliveries";
import { leaseUnroutedEvents } from "@/lib/db/queries/notifications/lease-unrouted-events";
import { markEventsRouted } from "@/lib/db/queries/notifications/mark-events-routed";
import type { Db } from "@/lib/db/client";
import type { TickCtx } from "../context";
import { payloadForRule, type NotificationPayload } from "@/lib/domain/notifications";

const BATCH = 500;

export type RouteResult = { events: number; deliveries: number };

export async function routeEvents({ ctx: deps }: { ctx: Pick<TickCtx, "db" | "now"> }): Promise<RouteResult> {
  const total: RouteResult = { events: 0, deliveries: 0 };
  for (;;) {
    const batch = await routeBatch(deps);
    total.events += batch.events;
    total.deliveries += batch.deliveries;
    if (batch.events < BATCH) return total;
  }
}

async function routeBatch({ db, now }: { db: Db; now: Date }): Promise<RouteResult> {
  return db.$transaction(async (tx) => {
    const events = await leaseUnroutedEvents(tx, BATCH);
    if (events.length === 0) return { events: 0, deliveries: 0 };
    const workspaces = [...new Set(events.map((e) => e.workspace_id))];
    const rules = await listEnabledRuleFilters(tx, workspaces);
    const deliveries: { eventId: string; ruleId: string; nextAttemptAt: Date; createdAt: Date }[] = [];
    for (const event of events) {
      for (const rule of rules) {
        if (rule.workspaceId !== event.workspace_id) continue;
        if (payloadForRule(rule, event.payload as NotificationPayload) === null) continue;
        deliveries.push({ eventId: event.id, ruleId: rule.id, nextAttemptAt: now, createdAt: now });
      }
    }
    const created = await createDeliveries(tx, deliveries);
    await markEventsRouted(tx, events.map((e) => e.id), now);
    return { events: events.length, deliveries: created };
  });
}
