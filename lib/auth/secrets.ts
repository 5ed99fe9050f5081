// API tokens and agent keys: a fixed prefix and a random secret. Only the
// SHA-256 of the whole value is stored (the secret has 238 bits of entropy, so
// a fast hash is right; a slow one would only slow every request).
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

export const TOKEN_PREFIX = "dw_";
export const AGENT_KEY_PREFIX = "dwa_";
const VISIBLE_CHARS = 8;

export type NewSecret = { value: string; prefix: string; hash: string };

export function generateSecret(prefix: string): NewSecret {
  const value = prefix + randomBytes(30).toString("base64url");
  return { value, prefix: value.slice(0, prefix.length + VISIBLE_CHARS), hash: hashSecret(value) };
}

export function hashSecret(value: string): string {
  return createHash("sha256").update(value, "utf8").digest("hex");
}

/** Constant-time comparison of two strings of any length. */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash("sha256").update(a).digest();
  const hb = createHash("sha256").update(b).digest();
  return timingSafeEqual(ha, hb) && a.length === b.length;
}

export function bearerToken(header: string | null): string | null {
  if (!header) return null;
  const m = /^Bearer\s+([A-Za-z0-9_\-.~+/=]{1,512})\s*$/i.exec(header);
  return m ? m[1]! : null;
}
