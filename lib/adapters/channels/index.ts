// Notification channels behind one entry point, looked up in the channel
// table. sendNotification never throws for a failed delivery: it returns
// whether to retry, and an error text that is safe to store and show.
import type { DeliveryResult } from "@/lib/domain/notifications/retry";
import type { SendContext } from "./channel";
import { describeConfigIssues } from "./config";
import { scrubSecrets, urlSecrets } from "./scrub";
import { channelDefinition, isChannel, type Channel } from "./table";

export { CHANNELS, CHANNEL_TABLE, channelDefinition, isChannel, type Channel } from "./table";
export { parseChannelSettings, channelCarries, channelResolvesIncidents, type SettingsProblem } from "./settings";
export type { ChannelField, ChannelDestination } from "./channel";
export { webhookConfigSchema, slackConfigSchema, emailConfigSchema } from "./config";
export type { WebhookConfig, SlackConfig, EmailConfig } from "./config";
export { verifyWebhookSignature, signWebhookBody } from "./webhook/signature";
export { parseSmtpUrl, DEFAULT_FROM, type SmtpSettings } from "./email/smtp-url";
export type { DeliveryResult } from "@/lib/domain/notifications/retry";

/** What one delivery sends: the channel's send context, with the rule's kind and its settings as stored (parsed here). */
export type SendNotificationInput = SendContext<unknown> & {
  /** A kind of the channel table; anything else is refused (rows keep the kind as text). */
  channel: Channel | (string & {});
};

function invalid(error: string): DeliveryResult {
  return { ok: false, retryable: false, error };
}

export async function sendNotification(input: SendNotificationInput): Promise<DeliveryResult> {
  if (!/^[A-Za-z0-9._:-]{1,200}$/.test(input.deliveryId)) return invalid("The delivery id must be 1–200 letters, digits, '.', '_', ':' or '-'.");
  if (!isChannel(input.channel)) return invalid(`Unknown channel ${String(input.channel).slice(0, 40)}.`);
  const def = channelDefinition(input.channel);
  try {
    if (def.events && !def.events.includes(input.payload.event)) return invalid(`${def.noun} does not carry ${input.payload.event} notifications.`);
    const config = def.schema.safeParse(input.config);
    if (!config.success) return invalid(`Invalid ${def.noun} settings: ${describeConfigIssues(config.error)}`);
    return await def.send({ ...input, config: config.data });
  } catch (error) {
    // A bug, not a delivery failure: keep the outbox moving and the text safe.
    const text = error instanceof Error ? error.message : String(error);
    return { ok: false, retryable: true, error: scrubSecrets(`Unexpected error while sending: ${text}`, secretsOf(input)) };
  }
}

/** Every secret in a rule's stored settings (and the SMTP address), for scrubbing. */
export function channelSecrets(channel: string, config: unknown): string[] {
  const c = config && typeof config === "object" ? (config as Record<string, unknown>) : {};
  return isChannel(channel) ? channelDefinition(channel).secrets(c) : [];
}

function secretsOf(input: SendNotificationInput): string[] {
  return [...(input.smtpUrl ? urlSecrets(input.smtpUrl) : []), ...channelSecrets(input.channel, input.config)];
}
