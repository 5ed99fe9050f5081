// Deliveries of one rule, newest first, with their failures: for admins, who
// can see where notifications went and why some did not arrive.
import { listDeliveries as readDeliveries } from "@/lib/db/queries/notifications/list-deliveries";
import type { z } from "zod";
import type { deliveryQuerySchema, deliverySchema } from "@/lib/services/notifications/schemas";
import { gateRefusedSubject, type NotificationPayload } from "@/lib/domain/notifications";
import { requireRole, type RequestCtx } from "../context";
import { getRuleRowOrThrow } from "../notification-rules/rules";

type DeliveryOut = z.infer<typeof deliverySchema>;

function summaryOf(payload: NotificationPayload | null): string {
  if (payload === null || typeof payload !== "object") return "";
  if (payload.event === "upgrade_plan") return `${payload.items.length} upgrade${payload.items.length === 1 ? "" : "s"}`;
  if (payload.event === "gate_refused") return `${gateRefusedSubject(payload)} refused in ${payload.environment}`;
  return `${payload.service} in ${payload.environment} (${payload.kind})`;
}

export async function listDeliveries({ ctx, input: { id, ...query } }: { ctx: RequestCtx; input: { id: string } & z.infer<typeof deliveryQuerySchema> }): Promise<{ items: DeliveryOut[] }> {
  requireRole(ctx.actor, "admin");
  const rule = await getRuleRowOrThrow(ctx, id);
  const rows = await readDeliveries(ctx.db, rule.id, { state: query.state, limit: query.limit ?? 100 });
  return {
    items: rows.map((d) => ({
      id: d.id,
      event_id: d.eventId,
      event: d.event.type,
      summary: summaryOf(d.event.payload as NotificationPayload | null),
      state: d.state,
      attempts: d.attempts,
      next_attempt_at: d.state === "pending" ? d.nextAttemptAt.toISOString() : null,
      last_error: d.lastError,
      sent_at: d.sentAt?.toISOString() ?? null,
      created_at: d.createdAt.toISOString(),
    })),
  };
}
