// Test-send: one sample drift_detected notification straight to a rule's
// destination (not through the outbox), so whoever set the rule up sees at
// once whether the address, secret and filters of the channel work. Where a
// detected drift opens an incident, the sample's resolution follows it.
import { getWorkspaceName } from "@/lib/db/queries/workspaces/get-workspace-name";
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import type { testSendSchema } from "@/lib/services/notification-rules/schemas";
import { channelResolvesIncidents, sendNotification, type SendNotificationInput } from "@/lib/adapters/channels";
import { buildDriftEventPayload, type DeliveryResult } from "@/lib/domain/notifications";
import type { Resolve } from "@/lib/net/destination";
import { requireRole, workspaceOf, type RequestCtx } from "../context";
import { getRuleRowOrThrow } from "./rules";

type TestSendOut = z.infer<typeof testSendSchema>;

export async function testSendRule({
  ctx, input: { id }, send = sendNotification, resolve,
}: {
  ctx: RequestCtx;
  input: { id: string };
  send?: (input: SendNotificationInput) => Promise<DeliveryResult>;
  resolve?: Resolve;
}): Promise<TestSendOut> {
  requireRole(ctx.actor, "member");
  const workspaceId = workspaceOf(ctx.actor);
  const rule = await getRuleRowOrThrow(ctx, id);
  const workspace = { name: await getWorkspaceName(ctx.db, workspaceId) };
  const now = ctx.now;
  const testId = `test-${randomUUID()}`;
  const sample = (event: "drift_detected" | "drift_resolved") =>
    buildDriftEventPayload({
      event,
      eventId: testId,
      occurredAt: now,
      workspace: workspace.name,
      baseUrl: ctx.config.baseUrl,
      drift: {
        id: testId, service: "driftwatch-test", team: null, environment: "test", kind: "upstream", state: event === "drift_detected" ? "announced" : "resolved",
        running: "1.0.0", expected: "1.1.0", openedAt: now, announcedAt: now, resolvedAt: event === "drift_detected" ? null : now,
      },
    });
  const common = { channel: rule.channel, config: rule.config, now, smtpUrl: ctx.config.smtpUrl, allowPrivate: rule.allowPrivate, resolve };
  let result = await send({ ...common, payload: sample("drift_detected"), deliveryId: testId });
  // An incident tool (PagerDuty) opens an incident for the sample: close it again at once.
  if (result.ok && channelResolvesIncidents(rule.channel)) result = await send({ ...common, payload: sample("drift_resolved"), deliveryId: `${testId}-resolve` });
  return result.ok
    ? { delivered: true, error: null, warning: result.warning ?? null }
    : { delivered: false, error: result.error, warning: null };
}
