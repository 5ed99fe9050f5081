// ntfy (ntfy.sh or self-hosted): publish to a topic with an optional access
// token or user and password. On a public server the topic name is itself a
// secret, so the address is masked like a webhook's.
import { z } from "zod";
import { defineChannel, MASK, maskUrl, shown, str } from "../channel";
import { httpUrl, secretString } from "../config";
import { postGuarded } from "../http-post";
import { urlSecrets } from "../scrub";
import { ntfyHeaders, renderNtfyMessage } from "./render";

export const ntfyConfigSchema = z
  .object({
    /** Server and topic: https://ntfy.sh/my-topic. */
    url: httpUrl.refine((v) => URL.canParse(v) && new URL(v).pathname.replace(/\/+$/, "").length > 1, { message: "must name a topic: https://ntfy.sh/<topic>" }),
    /** An access token (tk_…). */
    token: secretString().optional(),
    username: z.string().min(1).max(200).refine((v) => !/[:\u0000-\u001f]/.test(v), { message: "must not contain ':' or control characters" }).optional(),
    password: secretString().optional(),
  })
  .refine((c) => !(c.token && c.password), { message: "give a token or a user and password, not both", path: ["token"] })
  .refine((c) => Boolean(c.username) === Boolean(c.password), { message: "a user needs a password, and a password a user", path: ["password"] });
export type NtfyConfig = z.infer<typeof ntfyConfigSchema>;

function authorization(c: NtfyConfig): Record<string, string> {
  if (c.token) return { Authorization: `Bearer ${c.token}` };
  if (c.username && c.password) return { Authorization: `Basic ${Buffer.from(`${c.username}:${c.password}`).toString("base64")}` };
  return {};
}

export const ntfyChannel = defineChannel({
  label: "ntfy",
  noun: "ntfy",
  help: "The server and topic (https://ntfy.sh/your-topic or your own server); on ntfy.sh choose a topic nobody can guess. ntfy://[user:password@]host/topic works too.",
  schema: ntfyConfigSchema,
  fields: [
    { name: "url", label: "Server and topic", help: "https://ntfy.sh/<topic> or https://ntfy.example.com/<topic>.", placeholder: "https://ntfy.sh/driftwatch-…", secret: true },
    { name: "token", label: "Access token", help: "Optional (tk_…), for a protected topic. Never shown again.", secret: true, optional: true },
  ],
  shoutrrr: {
    scheme: "ntfy",
    parse: (url) => {
      const scheme = (url.searchParams.get("scheme") ?? "https").toLowerCase();
      if (scheme !== "https" && scheme !== "http") return { ok: false, detail: "?scheme= must be http or https" };
      const topic = url.pathname.replace(/^\/+|\/+$/g, "");
      if (!topic) return { ok: false, detail: "must read ntfy://[user:password@]host/topic" };
      const user = decodeURIComponent(url.username);
      const password = decodeURIComponent(url.password);
      const auth = password ? (user ? { username: user, password } : { token: password }) : {};
      return { ok: true, settings: { url: `${scheme}://${url.host || "ntfy.sh"}/${topic}`, ...auth } };
    },
  },
  mask: (c) => ({ url: maskUrl(c.url), ...(c.token ? { token: MASK } : {}), ...shown(c, "username"), ...(c.password ? { password: MASK } : {}) }),
  secrets: (c) => [...(typeof c.url === "string" ? urlSecrets(c.url) : []), ...str(c.token), ...str(c.password)],
  destinations: (c) => [{ pointer: "/config/url", url: c.url }],
  send: (ctx) => {
    const m = renderNtfyMessage(ctx.payload);
    return postGuarded({
      url: ctx.config.url,
      headers: { "Content-Type": "text/plain; charset=utf-8", "User-Agent": "Driftwatch", ...ntfyHeaders(m), ...authorization(ctx.config) },
      body: m.message,
      now: ctx.now, allowPrivate: ctx.allowPrivate, resolve: ctx.resolve, timeoutMs: ctx.timeoutMs,
      receiver: "ntfy",
      secrets: [...urlSecrets(ctx.config.url), ctx.config.token, ctx.config.password],
    });
  },
});
