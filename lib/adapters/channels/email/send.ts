// E-mail through the configured SMTP server (nodemailer). SMTP replies are
// classified like HTTP ones: 4xx temporary (retry), 5xx final.
import nodemailer from "nodemailer";
import type { DeliveryResult } from "@/lib/domain/notifications/retry";
import { isRetryableSmtpCode } from "@/lib/domain/notifications/retry";
import type { NotificationPayload } from "@/lib/domain/notifications/payloads";
import { renderEmail } from "@/lib/domain/notifications/render-email";
import { AppError } from "@/lib/domain/errors";
import type { EmailConfig } from "../config";
import { scrubSecrets } from "../scrub";
import { DEFAULT_FROM, parseSmtpUrl, type SmtpSettings } from "./smtp-url";

export const DEFAULT_SMTP_TIMEOUT_MS = 10_000;

export type SendEmailInput = {
  config: EmailConfig;
  payload: NotificationPayload;
  deliveryId: string;
  /** DRIFTWATCH_SMTP_URL */
  smtpUrl?: string | undefined;
  /** Overrides the URL's `?from=` and the default sender. */
  from?: string | undefined;
  timeoutMs?: number | undefined;
};

// Without an SMTP reply: what retrying cannot fix (certificate, credentials,
// configuration). Connection failures and timeouts are retried.
const FINAL_CODES = new Set(["ETLS", "EREQUIRETLS", "EAUTH", "ENOAUTH", "ECONFIG", "EENVELOPE"]);

type SmtpError = Error & { code?: unknown; responseCode?: unknown; response?: unknown; rejected?: unknown };

/** The reply's first line, short: servers sometimes echo long diagnostics. */
function replyText(error: SmtpError): string {
  const reply = typeof error.response === "string" ? error.response : error.message;
  const line = reply.split(/\r?\n/)[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

function classify(error: unknown, settings: SmtpSettings): DeliveryResult {
  const e = (error instanceof Error ? error : new Error(String(error))) as SmtpError;
  const where = `${settings.host}:${settings.port}`;
  const secrets = [settings.auth?.pass, settings.auth?.user];
  const code = typeof e.code === "string" ? e.code : undefined;
  if (typeof e.responseCode === "number") {
    const retryable = isRetryableSmtpCode(e.responseCode);
    const what = code === "EAUTH" ? "refused the login" : retryable ? "deferred the message" : "refused the message";
    return { ok: false, retryable, error: scrubSecrets(`SMTP server ${where} ${what}: ${replyText(e)}`, secrets) };
  }
  const retryable = !(code !== undefined && FINAL_CODES.has(code));
  return {
    ok: false,
    retryable,
    error: scrubSecrets(`SMTP server ${where} could not be used${code ? ` (${code})` : ""}: ${replyText(e)}`, secrets),
  };
}

export async function sendEmail(input: SendEmailInput): Promise<DeliveryResult> {
  if (!input.smtpUrl) return { ok: false, retryable: false, error: "E-mail is not configured: DRIFTWATCH_SMTP_URL is not set." };
  let settings: SmtpSettings;
  try {
    settings = parseSmtpUrl(input.smtpUrl);
  } catch (error) {
    return { ok: false, retryable: false, error: error instanceof AppError ? error.message : "DRIFTWATCH_SMTP_URL is not valid." };
  }

  const timeout = input.timeoutMs ?? DEFAULT_SMTP_TIMEOUT_MS;
  const transport = nodemailer.createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    ...(settings.auth ? { auth: settings.auth } : {}),
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout * 2,
    disableFileAccess: true,
    disableUrlAccess: true,
  });

  const rendered = renderEmail(input.payload);
  try {
    const info = await transport.sendMail({
      from: input.from ?? settings.from ?? DEFAULT_FROM,
      to: input.config.to,
      subject: rendered.subject,
      text: rendered.text,
      html: rendered.html,
      // The same delivery sent twice keeps one Message-ID, so mail clients can fold duplicates.
      messageId: `<${input.deliveryId.replace(/[^A-Za-z0-9._-]/g, "")}@driftwatch>`,
      headers: { "X-Driftwatch-Event": input.payload.event, "X-Driftwatch-Delivery": input.deliveryId },
    });
    const rejected = Array.isArray(info.rejected) ? info.rejected.length : 0;
    return rejected > 0 ? { ok: true, warning: `The SMTP server refused ${rejected} of ${input.config.to.length} recipients.` } : { ok: true };
  } catch (error) {
    return classify(error, settings);
  } finally {
    transport.close();
  }
}
