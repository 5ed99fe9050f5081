// A browser session made the way a browser makes one: Auth.js's CSRF token
// and cookie, then the credentials callback. Each sign-in names its client
// address (X-Forwarded-For from loopback is believed, see
// lib/http/client-address.ts), so tests do not share one address's limit.
import { randomInt } from "node:crypto";
import { baseUrl } from "./api";

export type SignInAnswer = { status: number; location: string | null; cookie: string | null; retryAfter: string | null; contentType: string | null; text: string };

/** A random client address, so no two sign-ins share one address's limit by accident. */
export function someAddress(): string {
  return `10.${randomInt(0, 256)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
}

function cookieJar() {
  const jar = new Map<string, string>();
  return {
    keep(res: Response) {
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(";");
        const eq = pair!.indexOf("=");
        jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
      }
    },
    header: () => [...jar].map(([k, v]) => `${k}=${v}`).join("; "),
    has: (part: string) => [...jar.keys()].some((k) => k.includes(part)),
  };
}

/** One password sign-in through Auth.js from `ip`; `csrf: false` leaves the CSRF token out; `base`, another server than the tests' own. */
export async function attemptSignIn(email: string, password: string, opts: { ip: string; csrf?: boolean; base?: string }): Promise<SignInAnswer> {
  const jar = cookieJar();
  const base = opts.base ?? baseUrl();
  const csrfRes = await fetch(`${base}/api/auth/csrf`, { headers: { "x-forwarded-for": opts.ip } });
  jar.keep(csrfRes);
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const form = new URLSearchParams({ email, password, callbackUrl: `${base}/` });
  if (opts.csrf !== false) form.set("csrfToken", csrfToken);
  const res = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.header(), origin: base, "x-forwarded-for": opts.ip },
    body: form,
    redirect: "manual",
  });
  jar.keep(res);
  const text = await res.text();
  return {
    status: res.status, location: res.headers.get("location"), cookie: jar.has("session-token") ? jar.header() : null,
    retryAfter: res.headers.get("retry-after"), contentType: res.headers.get("content-type"), text,
  };
}

/** The Cookie header of a signed-in session, or a thrown error. */
export async function sessionCookie(email: string, password: string, base?: string): Promise<string> {
  const answer = await attemptSignIn(email, password, { ip: someAddress(), base });
  if (!answer.cookie) throw new Error(`sign-in failed: ${answer.status} ${answer.location}`);
  return answer.cookie;
}

export type SessionAnswer = { status: number; headers: Headers; text: string; body: any };

/** A request with the session cookie, as a browser page of `origin` (or none) would send it. */
export async function sessionRequest(
  cookie: string,
  method: string,
  path: string,
  opts: { origin?: string | null; fetchSite?: string | null; body?: unknown } = {},
): Promise<SessionAnswer> {
  const headers: Record<string, string> = { cookie };
  const origin = opts.origin === undefined ? baseUrl() : opts.origin;
  if (origin !== null) headers.origin = origin;
  if (opts.fetchSite) headers["sec-fetch-site"] = opts.fetchSite;
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers["content-type"] = "application/json";
  }
  const res = await fetch(baseUrl() + path, { method, headers, body, redirect: "manual" });
  const text = await res.text();
  let parsed: unknown = text;
  if (res.headers.get("content-type")?.includes("json") && text) parsed = JSON.parse(text);
  return { status: res.status, headers: res.headers, text, body: parsed };
}
