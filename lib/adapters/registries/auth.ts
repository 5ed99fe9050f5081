// Registry authentication, learned from each registry's own 401 challenge:
// Bearer (anonymous or basic-auth token from the challenge's realm, with its
// service and scope, cached per host and scope until shortly before expiry) or
// Basic. Realms are never hard-coded, and are fetched over https only.
import { AppError } from "@/lib/domain/errors";
import { parseBody, statusError } from "@/lib/adapters/registries/errors";
import { tokenResponseSchema } from "@/lib/adapters/registries/schemas";
import type { Transport } from "@/lib/adapters/registries/transport";

export type Credentials = { username: string; password: string };
export type Challenge = { scheme: string; params: Record<string, string> };

/** Who is asking for what: `host` (reference host) picks credentials, `apiHost` is contacted. */
export type AuthTarget = { host: string; apiHost: string; path: string };

/** An Authorization header value, and whether it was just obtained (a refusal of it is final). */
export type Authorization = { header: string; isFresh: boolean };

export type Authenticator = {
  /** What to send before any challenge: known for a host once it has challenged us. */
  prepare(target: AuthTarget): Promise<Authorization | null>;
  /** Answers a 401; throws `forbidden` when there is nothing (more) to try. */
  answer(target: AuthTarget, challengeHeader: string | null): Promise<Authorization>;
};

type HostScheme = { kind: "bearer"; realm: string; service: string | null } | { kind: "basic" };
type Token = { header: string; expiresAt: number };

const DEFAULT_TOKEN_SECONDS = 60; // the token spec's default when expires_in is absent
const MAX_CACHED_TOKENS = 1_000;
const TOKEN_MAX_BYTES = 256 * 1024;

// auth-scheme, or auth-param `name=value` / `name="quoted, value"`.
const CHALLENGE_PART = /([!#$%&'*+.^_`|~0-9A-Za-z-]+)(?:\s*=\s*("(?:[^"\\]|\\.)*"|[^,\s]*))?/g;

/** Parses `WWW-Authenticate` into its challenges (several may share one header). */
export function parseWwwAuthenticate(header: string): Challenge[] {
  const challenges: Challenge[] = [];
  for (const m of header.matchAll(CHALLENGE_PART)) {
    const name = m[1] ?? "";
    const raw = m[2];
    if (raw === undefined) {
      challenges.push({ scheme: name.toLowerCase(), params: {} });
      continue;
    }
    const current = challenges.at(-1);
    if (!current) continue;
    current.params[name.toLowerCase()] = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, "$1") : raw;
  }
  return challenges;
}

export const pullScope = (path: string) => `repository:${path}:pull`;

function basicHeader(c: Credentials): string {
  return `Basic ${Buffer.from(`${c.username}:${c.password}`, "utf8").toString("base64")}`;
}

export function createAuthenticator(opts: {
  transport: Transport;
  credentials?: (host: string) => Credentials | null;
  now: () => number;
}): Authenticator {
  const schemes = new Map<string, HostScheme>();
  const tokens = new Map<string, Token>();
  const pending = new Map<string, Promise<Token>>();
  const credentialsFor = (t: AuthTarget) => opts.credentials?.(t.host) ?? null;

  async function requestToken(t: AuthTarget, scheme: Extract<HostScheme, { kind: "bearer" }>, scope: string): Promise<Token> {
    let url: URL;
    try {
      url = new URL(scheme.realm);
    } catch {
      throw new AppError("registry_unavailable", `${t.apiHost}: challenge realm ${JSON.stringify(scheme.realm)} is not a URL`);
    }
    if (scheme.service !== null) url.searchParams.set("service", scheme.service);
    for (const s of scope.split(" ").filter(Boolean)) url.searchParams.append("scope", s);
    const creds = credentialsFor(t);
    const ex = await opts.transport.send(url, {
      method: "GET",
      headers: creds ? { authorization: basicHeader(creds) } : {},
      maxBytes: TOKEN_MAX_BYTES,
    });
    const what = `token for ${t.host}/${t.path}`;
    if (ex.status === 401 || ex.status === 403) {
      throw new AppError("forbidden", `${what}: ${creds ? "the credentials were refused" : "anonymous access refused"} by ${url.host} (${ex.status}).`);
    }
    if (ex.status !== 200) throw statusError(ex.status, ex.body, what);
    const body = parseBody(tokenResponseSchema, ex.body, what);
    const lifetimeMs = (body.expires_in ?? DEFAULT_TOKEN_SECONDS) * 1000;
    return {
      header: `Bearer ${body.token ?? body.access_token ?? ""}`,
      expiresAt: opts.now() + lifetimeMs - Math.min(10_000, lifetimeMs / 4),
    };
  }

  async function token(t: AuthTarget, scheme: Extract<HostScheme, { kind: "bearer" }>, scope: string, force: boolean): Promise<Authorization> {
    const key = `${t.apiHost}|${scheme.realm}|${pullScope(t.path)}`;
    const cached = tokens.get(key);
    if (!force && cached && cached.expiresAt > opts.now()) return { header: cached.header, isFresh: false };
    let inFlight = pending.get(key);
    if (!inFlight) {
      inFlight = requestToken(t, scheme, scope).finally(() => pending.delete(key));
      pending.set(key, inFlight);
    }
    const fresh = await inFlight;
    tokens.delete(key);
    tokens.set(key, fresh);
    if (tokens.size > MAX_CACHED_TOKENS) tokens.delete(tokens.keys().next().value as string);
    return { header: fresh.header, isFresh: true };
  }

  return {
    async prepare(t) {
      const scheme = schemes.get(t.apiHost);
      if (!scheme) return null;
      if (scheme.kind === "basic") {
        const creds = credentialsFor(t);
        return creds ? { header: basicHeader(creds), isFresh: true } : null;
      }
      return token(t, scheme, pullScope(t.path), false);
    },

    async answer(t, challengeHeader) {
      const challenges = parseWwwAuthenticate(challengeHeader ?? "");
      const bearer = challenges.find((c) => c.scheme === "bearer" && c.params.realm);
      if (bearer?.params.realm) {
        const scheme: HostScheme = { kind: "bearer", realm: bearer.params.realm, service: bearer.params.service ?? null };
        schemes.set(t.apiHost, scheme);
        return token(t, scheme, bearer.params.scope ?? pullScope(t.path), true);
      }
      if (challenges.some((c) => c.scheme === "basic")) {
        schemes.set(t.apiHost, { kind: "basic" });
        const creds = credentialsFor(t);
        if (creds) return { header: basicHeader(creds), isFresh: true };
        throw new AppError("forbidden", `${t.host}/${t.path}: the registry requires credentials (Basic).`);
      }
      throw new AppError("forbidden", `${t.host}/${t.path}: the registry requires authentication without a usable challenge.`);
    },
  };
}
