// Delivery outcomes and the retry schedule. Pure: the caller passes the clock
// and the random number used for jitter.

export type DeliveryFailure = {
  ok: false;
  /** False when sending the same thing again cannot succeed (4xx, 5xx SMTP reply, bad configuration). */
  retryable: boolean;
  /** What the receiver asked for (Retry-After), in seconds. */
  retryAfterSeconds?: number;
  /** Safe to store and show: never contains a secret. */
  error: string;
};

export type DeliveryResult = { ok: true; warning?: string } | DeliveryFailure;

export const RETRY_BASE_SECONDS = 30;
export const RETRY_CAP_SECONDS = 60 * 60;
export const MAX_DELIVERY_AGE_SECONDS = 24 * 60 * 60;
/** Delays spread over ±10 % so that failed deliveries do not retry in lockstep. */
export const JITTER_SPREAD = 0.2;

/**
 * Seconds to wait after `attempts` failed attempts: 30 s, 1 m, 2 m, 4 m …
 * capped at 1 h. `jitter` is a number in [0, 1); 0.5 gives the exact value.
 */
export function nextAttemptDelay(attempts: number, jitter = 0.5): number {
  const n = Math.max(1, Math.floor(attempts));
  const base = Math.min(RETRY_CAP_SECONDS, RETRY_BASE_SECONDS * 2 ** Math.min(n - 1, 30));
  const factor = 1 + JITTER_SPREAD * (Math.min(Math.max(jitter, 0), 1) - 0.5);
  return Math.min(RETRY_CAP_SECONDS, Math.max(1, Math.round(base * factor)));
}

export type NextAttemptInput = {
  /** Failed attempts so far, including the one just made. */
  attempts: number;
  /** When the delivery was first attempted (or enqueued). */
  firstAttemptAt: Date;
  now: Date;
  failure: DeliveryFailure;
  jitter: number;
  maxAgeSeconds?: number;
};

export type NextAttempt =
  | { action: "retry"; nextAttemptAt: Date; delaySeconds: number }
  | { action: "fail"; reason: "permanent" | "expired" };

/** Retry at the back-off delay (or the receiver's Retry-After, if longer), until the delivery is a day old. */
export function planNextAttempt(input: NextAttemptInput): NextAttempt {
  if (!input.failure.retryable) return { action: "fail", reason: "permanent" };
  const backoff = nextAttemptDelay(input.attempts, input.jitter);
  const asked = Math.min(input.failure.retryAfterSeconds ?? 0, RETRY_CAP_SECONDS);
  const delaySeconds = Math.max(backoff, asked);
  const nextAttemptAt = new Date(input.now.getTime() + delaySeconds * 1000);
  const deadline = input.firstAttemptAt.getTime() + (input.maxAgeSeconds ?? MAX_DELIVERY_AGE_SECONDS) * 1000;
  if (nextAttemptAt.getTime() > deadline) return { action: "fail", reason: "expired" };
  return { action: "retry", nextAttemptAt, delaySeconds };
}

export type HttpOutcome = "sent" | "retryable" | "permanent";

/** 2xx sent; 408, 429 and 5xx worth retrying; anything else (other 4xx, redirects) final. */
export function classifyHttpStatus(status: number): HttpOutcome {
  if (status >= 200 && status < 300) return "sent";
  if (status === 408 || status === 429 || (status >= 500 && status < 600)) return "retryable";
  return "permanent";
}

/** SMTP replies: 4xx is a temporary refusal, 5xx a final one. */
export function isRetryableSmtpCode(code: number): boolean {
  return code >= 400 && code < 500;
}

const RETRYABLE_CODES = new Set([
  // Node sockets and DNS
  "ECONNREFUSED", "ECONNRESET", "ECONNABORTED", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH",
  "EHOSTDOWN", "ENETDOWN", "EAI_AGAIN", "ENOTFOUND",
  // nodemailer
  "ECONNECTION", "ESOCKET", "EDNS",
  // lib/domain/errors codes
  "rate_limited", "unavailable", "registry_unavailable", "forge_unavailable",
]);

/**
 * Whether a failure is worth another attempt. Understands DeliveryFailure,
 * HTTP `status`, SMTP `responseCode`, Node and nodemailer error codes and
 * AppError codes; anything unknown is not retried.
 */
export function isRetryable(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const e = error as Record<string, unknown>;
  if (e.ok === false && typeof e.retryable === "boolean") return e.retryable;
  if (typeof e.responseCode === "number") return isRetryableSmtpCode(e.responseCode);
  if (typeof e.status === "number") return classifyHttpStatus(e.status) === "retryable";
  if (typeof e.code === "string" && RETRYABLE_CODES.has(e.code)) return true;
  if (e.name === "TimeoutError" || e.name === "AbortError") return true;
  return e.cause !== undefined && e.cause !== error ? isRetryable(e.cause) : false;
}

const MAX_RETRY_AFTER_SECONDS = MAX_DELIVERY_AGE_SECONDS;

/** `Retry-After` as delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | readonly string[] | undefined, now: Date): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (typeof raw !== "string") return undefined;
  const text = raw.trim();
  if (/^\d{1,10}$/.test(text)) return Math.min(Number(text), MAX_RETRY_AFTER_SECONDS);
  const at = Date.parse(text);
  if (Number.isNaN(at) || !/[a-z]/i.test(text)) return undefined;
  return Math.min(Math.max(0, Math.ceil((at - now.getTime()) / 1000)), MAX_RETRY_AFTER_SECONDS);
}
