// The one table of notification channels. A new channel is a folder with
// its definition (settings schema, renderer, sender) and one line here; the
// API, the settings page, the outbox and the test send read this table.
// (The database keeps the kind as text, so no migration either.)
import type { AnyChannelDefinition } from "./channel";
import { discordChannel } from "./discord";
import { emailChannel } from "./email";
import { gotifyChannel } from "./gotify";
import { matrixChannel } from "./matrix";
import { mqttChannel } from "./mqtt";
import { ntfyChannel } from "./ntfy";
import { pagerDutyChannel } from "./pagerduty";
import { slackChannel } from "./slack";
import { teamsChannel } from "./teams";
import { telegramChannel } from "./telegram";
import { webhookChannel } from "./webhook";

export const CHANNEL_TABLE = {
  webhook: webhookChannel,
  slack: slackChannel,
  email: emailChannel,
  teams: teamsChannel,
  discord: discordChannel,
  telegram: telegramChannel,
  ntfy: ntfyChannel,
  gotify: gotifyChannel,
  matrix: matrixChannel,
  mqtt: mqttChannel,
  pagerduty: pagerDutyChannel,
} as const satisfies Record<string, AnyChannelDefinition>;

export type Channel = keyof typeof CHANNEL_TABLE;
export const CHANNELS = Object.keys(CHANNEL_TABLE) as [Channel, ...Channel[]];

export function channelDefinition(channel: Channel): AnyChannelDefinition {
  return CHANNEL_TABLE[channel];
}

export function isChannel(value: string): value is Channel {
  return Object.hasOwn(CHANNEL_TABLE, value);
}
