// Telegram through the Bot API (or a self-hosted Bot API server: api_url).
// The bot token sits in the request path, so it is scrubbed from every error.
import { z } from "zod";
import { defineChannel, MASK, shown, str } from "../channel";
import { httpUrl } from "../config";
import { jsonRetryAfter, postJson } from "../http-post";
import { renderTelegramMessage } from "./render";

export const TELEGRAM_API_URL = "https://api.telegram.org";

export const telegramConfigSchema = z.object({
  token: z.string().max(200).regex(/^\d{1,20}:[A-Za-z0-9_-]{20,}$/, { message: "must be a bot token (123456:ABC…) from @BotFather" }),
  /** A numeric chat id (groups are negative) or a public channel's @name. */
  chat_id: z.union([z.string(), z.number().int()]).transform(String).pipe(z.string().regex(/^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{3,31})$/, { message: "must be a numeric chat id or @channelname" })),
  /** A Bot API server other than Telegram's own. */
  api_url: httpUrl.optional(),
});
export type TelegramConfig = z.infer<typeof telegramConfigSchema>;

/** Telegram's 429 body: `{"ok":false,"parameters":{"retry_after":5}}`. */
export const telegramRetryAfter = jsonRetryAfter((j) => (j.parameters as { retry_after?: unknown } | undefined)?.retry_after);

export const telegramChannel = defineChannel({
  label: "Telegram",
  noun: "Telegram",
  help: "A bot from @BotFather added to the chat; telegram://token@telegram?chats=… works too. Point “Bot API server” at your own server if Telegram's is out of reach.",
  schema: telegramConfigSchema,
  fields: [
    { name: "token", label: "Bot token", help: "From @BotFather. Never shown again.", placeholder: "123456789:AA…", secret: true },
    { name: "chat_id", label: "Chat", help: "A numeric chat id (groups start with -) or @channelname.", placeholder: "-1001234567890" },
    { name: "api_url", label: "Bot API server", help: `Optional; ${TELEGRAM_API_URL} by default.`, placeholder: TELEGRAM_API_URL, optional: true },
  ],
  shoutrrr: {
    scheme: "telegram",
    parse: (url) => {
      // The token's colon splits it into the address's user and password.
      const token = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
      const chats = (url.searchParams.get("chats") ?? url.searchParams.get("channels") ?? "").split(",").map((c) => c.trim()).filter(Boolean);
      if (!url.username || !url.password) return { ok: false, detail: "must read telegram://token@telegram?chats=chat" };
      if (chats.length !== 1) return { ok: false, detail: "must name exactly one chat (?chats=…); make one rule per chat" };
      return { ok: true, settings: { token, chat_id: chats[0] } };
    },
  },
  mask: (c) => ({ token: MASK, ...shown(c, "chat_id", "api_url") }),
  secrets: (c) => str(c.token),
  destinations: (c) => [{ pointer: c.api_url ? "/config/api_url" : "/config/token", url: c.api_url ?? TELEGRAM_API_URL }],
  send: (ctx) =>
    postJson(ctx, {
      url: `${(ctx.config.api_url ?? TELEGRAM_API_URL).replace(/\/+$/, "")}/bot${ctx.config.token}/sendMessage`,
      body: renderTelegramMessage(ctx.payload, ctx.config.chat_id),
      receiver: "Telegram",
      secrets: [ctx.config.token],
      retryAfterFromBody: telegramRetryAfter,
    }),
});
