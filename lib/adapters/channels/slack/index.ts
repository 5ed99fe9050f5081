// Slack-compatible incoming webhooks (Slack, Mattermost, Rocket.Chat) as a channel.
import { defineChannel, maskUrl } from "../channel";
import { slackConfigSchema } from "../config";
import { urlSecrets } from "../scrub";
import { sendSlack } from "./send";

export const slackChannel = defineChannel({
  label: "Slack incoming webhook",
  noun: "Slack",
  help: "A Slack, Mattermost or Rocket.Chat incoming-webhook address; the address is the secret and is never shown again.",
  schema: slackConfigSchema,
  fields: [{ name: "url", label: "Webhook URL", help: "Incoming-webhook address.", placeholder: "https://hooks.slack.com/services/…", secret: true }],
  mask: (c) => ({ url: maskUrl(c.url) }),
  secrets: (c) => (typeof c.url === "string" ? urlSecrets(c.url) : []),
  destinations: (c) => [{ pointer: "/config/url", url: c.url }],
  send: (ctx) => sendSlack(ctx),
});
