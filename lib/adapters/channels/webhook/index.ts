// The generic webhook as a channel: signed JSON to any address.
import { defineChannel, MASK, maskUrl, str } from "../channel";
import { webhookConfigSchema } from "../config";
import { urlSecrets } from "../scrub";
import { sendWebhook } from "./send";

export const webhookChannel = defineChannel({
  label: "Webhook (signed JSON)",
  noun: "webhook",
  help: "The event as JSON, signed with X-Driftwatch-Signature; X-Driftwatch-Delivery stays the same on a retry.",
  schema: webhookConfigSchema,
  fields: [
    { name: "url", label: "URL", help: "Where to POST the JSON.", placeholder: "https://hooks.example.com/driftwatch" },
    { name: "secret", label: "Signing secret", help: "At least 16 characters; signs X-Driftwatch-Signature. Never shown again.", secret: true },
  ],
  mask: (c) => {
    const headers = (c.headers ?? null) as Record<string, unknown> | null;
    return { url: maskUrl(c.url), secret: MASK, ...(headers ? { headers: Object.fromEntries(Object.keys(headers).map((k) => [k, MASK])) } : {}) };
  },
  secrets: (c) => [
    ...str(c.secret),
    ...(typeof c.url === "string" ? urlSecrets(c.url) : []),
    ...(c.headers && typeof c.headers === "object" ? Object.values(c.headers).flatMap(str) : []),
  ],
  destinations: (c) => [{ pointer: "/config/url", url: c.url }],
  send: (ctx) => sendWebhook(ctx),
});
