// Generic webhook: the payload as JSON, signed, with a delivery id the
// receiver can use to drop duplicates (an outbox retries at least once).
import type { DeliveryResult } from "@/lib/domain/notifications/retry";
import type { NotificationPayload } from "@/lib/domain/notifications/payloads";
import { renderWebhookBody } from "@/lib/domain/notifications/render-webhook";
import type { Resolve } from "@/lib/net/destination";
import type { WebhookConfig } from "../config";
import { postGuarded } from "../http-post";
import { urlSecrets } from "../scrub";
import { signWebhookBody } from "./signature";

export type SendWebhookInput = {
  config: WebhookConfig;
  payload: NotificationPayload;
  deliveryId: string;
  now: Date;
  allowPrivate: boolean;
  resolve?: Resolve | undefined;
  timeoutMs?: number | undefined;
};

export function webhookHeaders(input: { config: WebhookConfig; payload: NotificationPayload; deliveryId: string; now: Date; body: string }) {
  const timestamp = Math.floor(input.now.getTime() / 1000);
  return {
    ...input.config.headers,
    "Content-Type": "application/json",
    "User-Agent": "Driftwatch",
    "X-Driftwatch-Event": input.payload.event,
    "X-Driftwatch-Delivery": input.deliveryId,
    "X-Driftwatch-Timestamp": String(timestamp),
    "X-Driftwatch-Signature": signWebhookBody(input.config.secret, timestamp, input.body),
  };
}

export async function sendWebhook(input: SendWebhookInput): Promise<DeliveryResult> {
  const body = renderWebhookBody(input.payload);
  return postGuarded({
    url: input.config.url,
    headers: webhookHeaders({ ...input, body }),
    body,
    now: input.now,
    allowPrivate: input.allowPrivate,
    resolve: input.resolve,
    timeoutMs: input.timeoutMs,
    receiver: "Webhook",
    secrets: [input.config.secret, ...urlSecrets(input.config.url), ...Object.values(input.config.headers ?? {})],
  });
}
