// Slack-compatible incoming webhooks. The URL is the only credential, so it
// never appears in an error; only its host does.
import type { DeliveryResult } from "@/lib/domain/notifications/retry";
import type { NotificationPayload } from "@/lib/domain/notifications/payloads";
import { renderSlackMessage } from "@/lib/domain/notifications/render-slack";
import type { Resolve } from "@/lib/net/destination";
import type { SlackConfig } from "../config";
import { postGuarded } from "../http-post";
import { urlSecrets } from "../scrub";

export type SendSlackInput = {
  config: SlackConfig;
  payload: NotificationPayload;
  now: Date;
  allowPrivate: boolean;
  resolve?: Resolve | undefined;
  timeoutMs?: number | undefined;
};

export async function sendSlack(input: SendSlackInput): Promise<DeliveryResult> {
  return postGuarded({
    url: input.config.url,
    headers: { "Content-Type": "application/json; charset=utf-8", "User-Agent": "Driftwatch" },
    body: JSON.stringify(renderSlackMessage(input.payload)),
    now: input.now,
    allowPrivate: input.allowPrivate,
    resolve: input.resolve,
    timeoutMs: input.timeoutMs,
    receiver: "Slack",
    secrets: urlSecrets(input.config.url),
  });
}
