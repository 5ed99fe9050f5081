// Discord through a channel webhook. The address carries the webhook's token.
import { z } from "zod";
import { defineChannel, maskUrl } from "../channel";
import { httpUrl } from "../config";
import { postGuarded } from "../http-post";
import { urlSecrets } from "../scrub";
import { renderDiscordMessage } from "./render";

export const discordConfigSchema = z.object({ url: httpUrl });

/** Discord's 429 body: `{"retry_after": 1.5, …}` in seconds. */
export function discordRetryAfter(body: string): number | undefined {
  try {
    const wait = (JSON.parse(body) as { retry_after?: unknown }).retry_after;
    return typeof wait === "number" && wait >= 0 ? Math.ceil(wait) : undefined;
  } catch {
    return undefined;
  }
}

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
    postGuarded({
      url: ctx.config.url,
      headers: { "Content-Type": "application/json", "User-Agent": "Driftwatch" },
      body: JSON.stringify(renderDiscordMessage(ctx.payload)),
      now: ctx.now, allowPrivate: ctx.allowPrivate, resolve: ctx.resolve, timeoutMs: ctx.timeoutMs,
      receiver: "Discord",
      secrets: urlSecrets(ctx.config.url),
      retryAfterFromBody: discordRetryAfter,
    }),
});
