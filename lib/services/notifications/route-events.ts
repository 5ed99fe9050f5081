// Fan-out of the outbox: every event not routed yet becomes one Delivery per
// matching enabled rule, and is marked routed, in one transaction. Several
// workers split the events with FOR UPDATE SKIP LOCKED; the unique
// (event, rule) pair makes a repeated fan-out harmless.
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
    const events = await tx.$queryRaw<{ id: string; workspace_id: string; payload: unknown }[]>`
      SELECT id::text, workspace_id::text, payload FROM events
      WHERE routed_at IS NULL
      ORDER BY created_at, id
      LIMIT ${BATCH}
      FOR UPDATE SKIP LOCKED`;
    if (events.length === 0) return { events: 0, deliveries: 0 };
    const workspaces = [...new Set(events.map((e) => e.workspace_id))];
    const rules = await tx.notificationRule.findMany({
      where: { workspaceId: { in: workspaces }, enabled: true },
      select: { id: true, workspaceId: true, events: true, kinds: true, services: true, environments: true, teams: true },
    });
    const deliveries: { eventId: string; ruleId: string; nextAttemptAt: Date; createdAt: Date }[] = [];
    for (const event of events) {
      for (const rule of rules) {
        if (rule.workspaceId !== event.workspace_id) continue;
        if (payloadForRule(rule, event.payload as NotificationPayload) === null) continue;
        deliveries.push({ eventId: event.id, ruleId: rule.id, nextAttemptAt: now, createdAt: now });
      }
    }
    const created = deliveries.length ? await tx.delivery.createMany({ data: deliveries, skipDuplicates: true }) : { count: 0 };
    await tx.$executeRaw`UPDATE events SET routed_at = ${now} WHERE id = ANY(${events.map((e) => e.id)}::uuid[])`;
    return { events: events.length, deliveries: created.count };
  });
}
