// E-mail through the server's SMTP server as a channel.
import { defineChannel } from "../channel";
import { emailConfigSchema } from "../config";
import { sendEmail } from "./send";

export const emailChannel = defineChannel({
  label: "E-mail",
  noun: "e-mail",
  help: "Sent through the server's DRIFTWATCH_SMTP_URL.",
  schema: emailConfigSchema,
  fields: [{ name: "to", label: "Send to", help: "Up to 20 addresses, comma-separated.", placeholder: "oncall@example.com, team@example.com", type: "list" }],
  needsSmtp: true,
  mask: (c) => ({ to: Array.isArray(c.to) ? c.to : [] }),
  secrets: () => [],
  destinations: () => [],
  send: (ctx) => sendEmail({ ...ctx, from: ctx.emailFrom }),
});
