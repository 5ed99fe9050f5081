// Webhook signatures: HMAC-SHA256 over "<unix seconds>.<body>" with the
// rule's secret, sent as `X-Driftwatch-Signature: sha256=<hex>`. Receivers
// verify with verifyWebhookSignature (or its few lines in their language).
import { createHmac, timingSafeEqual } from "node:crypto";

export const SIGNATURE_PREFIX = "sha256=";
export const DEFAULT_TOLERANCE_SECONDS = 300;

export function signWebhookBody(secret: string, timestamp: number | string, body: string): string {
  const mac = createHmac("sha256", secret).update(`${timestamp}.`).update(body).digest("hex");
  return `${SIGNATURE_PREFIX}${mac}`;
}

export type VerifyOptions = { now: Date; toleranceSeconds?: number };

/**
 * True when `signature` is the body's signature for that timestamp and the
 * timestamp is within the tolerance of `now` (either way): an old delivery
 * replayed later fails. The comparison is constant-time.
 */
export function verifyWebhookSignature(
  secret: string,
  timestamp: number | string,
  body: string | Buffer,
  signature: string,
  { now, toleranceSeconds = DEFAULT_TOLERANCE_SECONDS }: VerifyOptions,
): boolean {
  const ts = String(timestamp);
  if (!/^\d{1,12}$/.test(ts)) return false;
  if (Math.abs(Math.floor(now.getTime() / 1000) - Number(ts)) > toleranceSeconds) return false;
  const match = /^sha256=([0-9a-f]{64})$/i.exec(signature.trim());
  if (!match?.[1]) return false;
  const expected = createHmac("sha256", secret).update(`${ts}.`).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(match[1], "hex"));
}
