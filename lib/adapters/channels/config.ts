// Settings pieces shared by the channels, and the settings of the first
// three (webhook, Slack, e-mail). The destination guard (lib/net/destination)
// runs again at send time.
import { z } from "zod";
import { checkHeaderName } from "@/lib/net/destination";

export const httpUrl = z
  .string()
  .max(2048)
  // The URL parser drops CR, LF and tabs silently; refuse them (and any control character or space) instead of storing them.
  .refine((v) => /^https?:\/\//i.test(v) && !/[\u0000-\u0020\u007f]/.test(v) && URL.canParse(v), { message: "must be an http(s) URL" });

// Headers Driftwatch sets itself, or that would change how the request is framed.
const RESERVED_HEADERS = /^(content-type|content-length|host|user-agent|transfer-encoding|connection|x-driftwatch-.*)$/i;

const extraHeaders = z
  .record(
    z.string().min(1).max(100).refine((n) => {
      try {
        checkHeaderName(n);
        return !RESERVED_HEADERS.test(n);
      } catch {
        return false;
      }
    }, { message: "must be a valid header name that Driftwatch does not set itself" }),
    z.string().max(1000).refine((v) => !/[\r\n\0]/.test(v), { message: "must not contain line breaks" }),
  )
  .refine((h) => Object.keys(h).length <= 10, { message: "at most 10 headers" });

export const webhookConfigSchema = z.object({
  url: httpUrl,
  /** Signs every delivery (X-Driftwatch-Signature). */
  secret: z.string().min(16).max(256),
  /** Extra headers for the receiver, such as an Authorization token. */
  headers: extraHeaders.optional(),
});

export const slackConfigSchema = z.object({
  /** The incoming-webhook URL; it is itself a secret. */
  url: httpUrl,
});

export const emailConfigSchema = z.object({
  to: z.array(z.email().max(254)).min(1).max(20),
});

export type WebhookConfig = z.infer<typeof webhookConfigSchema>;
export type SlackConfig = z.infer<typeof slackConfigSchema>;
export type EmailConfig = z.infer<typeof emailConfigSchema>;

/** A secret written into settings: a token, a key, a password. */
export const secretString = (max = 512) =>
  z.string().min(1).max(max).refine((v) => !/[\u0000-\u0020\u007f]/.test(v), { message: "must not contain spaces or control characters" });

/** Issues as `path: message`, never echoing the values (a URL or secret may be among them). */
export function describeConfigIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length ? issue.path.map(String).join(".") : "(config)"}: ${issue.message}`)
    .join("; ");
}
