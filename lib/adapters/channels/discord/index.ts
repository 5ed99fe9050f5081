// Discord through a channel webhook. The address carries the webhook's token.
import { z } from "zod";
import { defineChannel, maskUrl } from "../channel";
import { httpUrl } from "../config";
import { jsonRetryAfter, postJson } from "../http-post";
import { urlSecrets } from "../scrub";
import { renderDiscordMessage } from "./render";

export const discordConfigSchema = z.object({ url: httpUrl });

/** Discord's 429 body: `{"retry_after": 1.5, …}` in seconds. */
export const discordRetryAfter = jsonRetryAfter((j) => j.retry_after);

export const discordChannel = defineChannel({
  label: "Discord",
  noun: "Discord",
  help: "Server settings › Integrations › Webhooks › New webhook › Copy webhook URL; discord://token@id works too.",
  schema: discordConfigSchema,
  fields: [{ name: "url", label: "Webhook URL", help: "https://discord.com/api/webhooks/<id>/<token>, or discord://token@id.", placeholder: "https://discord.com/api/webhooks/…", secret: true }],
  shoutrrr: {
    scheme: "discord",
    parse: (url) => {
      const token = decodeURIComponent(url.username);
      const id = url.hostname;
      if (!/^\d{1,25}$/.test(id) || !/^[A-Za-z0-9_-]{1,200}$/.test(token)) return { ok: false, detail: "must read discord://token@webhookid" };
      return { ok: true, settings: { url: `https://discord.com/api/webhooks/${id}/${token}` } };
    },
  },
  mask: (c) => ({ url: maskUrl(c.url) }),
  secrets: (c) => (typeof c.url === "string" ? urlSecrets(c.url) : []),
  destinations: (c) => [{ pointer: "/config/url", url: c.url }],
  send: (ctx) =>
    postJson(ctx, { url: ctx.config.url, body: renderDiscordMessage(ctx.payload), receiver: "Discord", secrets: urlSecrets(ctx.config.url), retryAfterFromBody: discordRetryAfter }),
});
