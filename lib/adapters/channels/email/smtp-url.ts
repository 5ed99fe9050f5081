// DRIFTWATCH_SMTP_URL: `smtp://[user:pass@]host[:port]` (STARTTLS when the
// server offers it) or `smtps://…` (TLS from the first byte). An optional
// `?from=` sets the sender. Errors never repeat the URL: it holds a password.
import { AppError } from "@/lib/domain/errors";

export type SmtpSettings = {
  host: string;
  port: number;
  secure: boolean;
  auth: { user: string; pass: string } | null;
  from: string | null;
};

export const DEFAULT_FROM = "Driftwatch <driftwatch@localhost>";

function bad(detail: string): AppError {
  return new AppError("invalid_input", `DRIFTWATCH_SMTP_URL ${detail}`, { errors: [{ pointer: "/DRIFTWATCH_SMTP_URL", detail }] });
}

export function parseSmtpUrl(raw: string): SmtpSettings {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw bad("is not a valid URL (expected smtp://user:pass@host:port).");
  }
  if (url.protocol !== "smtp:" && url.protocol !== "smtps:") throw bad("must start with smtp:// or smtps://.");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!host) throw bad("has no host.");
  const secure = url.protocol === "smtps:";
  const port = url.port ? Number(url.port) : secure ? 465 : 587;
  let user: string;
  let pass: string;
  try {
    user = decodeURIComponent(url.username);
    pass = decodeURIComponent(url.password);
  } catch {
    throw bad("has a user name or password that is not valid percent-encoding.");
  }
  if (pass && !user) throw bad("has a password without a user name.");
  const from = url.searchParams.get("from");
  if (from !== null && /[\r\n]/.test(from)) throw bad("has a from address with a line break.");
  return { host, port, secure, auth: user ? { user, pass } : null, from: from || null };
}
