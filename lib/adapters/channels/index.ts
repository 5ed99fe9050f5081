// Notification channels behind one entry point, chosen by an exhaustive
// switch. sendNotification never throws for a failed delivery: it returns
// whether to retry, and an error text that is safe to store and show.
import type { DeliveryResult } from "@/lib/domain/notifications/retry";
import type { NotificationPayload } from "@/lib/domain/notifications/payloads";
import type { Resolve } from "@/lib/net/destination";
import { CHANNEL_CONFIG_SCHEMAS, describeConfigIssues, type Channel } from "./config";
import { sendEmail } from "./email/send";
import { scrubSecrets, urlSecrets } from "./scrub";
import { sendSlack } from "./slack/send";
import { sendWebhook } from "./webhook/send";

export { CHANNELS, CHANNEL_CONFIG_SCHEMAS, webhookConfigSchema, slackConfigSchema, emailConfigSchema } from "./config";
export type { Channel, ChannelConfig, WebhookConfig, SlackConfig, EmailConfig } from "./config";
export { verifyWebhookSignature, signWebhookBody } from "./webhook/signature";
export { parseSmtpUrl, DEFAULT_FROM, type SmtpSettings } from "./email/smtp-url";
export type { DeliveryResult } from "@/lib/domain/notifications/retry";

export type SendNotificationInput = {
  channel: Channel;
  /** The rule's channel settings as stored; parsed here. */
  config: unknown;
  payload: NotificationPayload;
  /** Stable across retries of one delivery: the receiver's idempotency key. */
  deliveryId: string;
  now: Date;
  /** DRIFTWATCH_SMTP_URL, for e-mail. */
  smtpUrl?: string | undefined;
  /** Sender for e-mail; default from the SMTP URL's `?from=`, else Driftwatch <driftwatch@localhost>. */
  emailFrom?: string | undefined;
  /** An administrator's permission to deliver to private networks. */
  allowPrivate: boolean;
  resolve?: Resolve | undefined;
  timeoutMs?: number | undefined;
};

function invalid(error: string): DeliveryResult {
  return { ok: false, retryable: false, error };
}

export async function sendNotification(input: SendNotificationInput): Promise<DeliveryResult> {
  if (!/^[A-Za-z0-9._:-]{1,200}$/.test(input.deliveryId)) return invalid("The delivery id must be 1–200 letters, digits, '.', '_', ':' or '-'.");
  try {
    switch (input.channel) {
      case "webhook": {
        const config = CHANNEL_CONFIG_SCHEMAS.webhook.safeParse(input.config);
        if (!config.success) return invalid(`Invalid webhook settings: ${describeConfigIssues(config.error)}`);
        return await sendWebhook({ ...input, config: config.data });
      }
      case "slack": {
        const config = CHANNEL_CONFIG_SCHEMAS.slack.safeParse(input.config);
        if (!config.success) return invalid(`Invalid Slack settings: ${describeConfigIssues(config.error)}`);
        return await sendSlack({ ...input, config: config.data });
      }
      case "email": {
        const config = CHANNEL_CONFIG_SCHEMAS.email.safeParse(input.config);
        if (!config.success) return invalid(`Invalid e-mail settings: ${describeConfigIssues(config.error)}`);
        return await sendEmail({ ...input, config: config.data, from: input.emailFrom });
      }
      default: {
        const never: never = input.channel;
        return invalid(`Unknown channel ${String(never)}.`);
      }
    }
  } catch (error) {
    // A bug, not a delivery failure: keep the outbox moving and the text safe.
    const text = error instanceof Error ? error.message : String(error);
    return { ok: false, retryable: true, error: scrubSecrets(`Unexpected error while sending: ${text}`, secretsOf(input)) };
  }
}

function secretsOf(input: SendNotificationInput): string[] {
  const out: string[] = [];
  if (input.smtpUrl) out.push(...urlSecrets(input.smtpUrl));
  const config = input.config as Record<string, unknown> | null;
  if (config && typeof config === "object") {
    if (typeof config.secret === "string") out.push(config.secret);
    if (typeof config.url === "string") out.push(...urlSecrets(config.url));
    if (config.headers && typeof config.headers === "object") {
      for (const v of Object.values(config.headers)) if (typeof v === "string") out.push(v);
    }
  }
  return out;
}
