// Single sign-on with an OpenID Connect provider, for Auth.js: the provider
// (discovery, PKCE, state and nonce) and the ID token check Auth.js leaves
// out. Auth.js checks the token's issuer, audience and expiry but not its
// signature; this verifies all of them against the provider's published keys
// before Auth.js reads the token.
import { createRemoteJWKSet, errors, jwtVerify, type JWTVerifyGetKey } from "jose";
import { CredentialsSignin } from "next-auth";
import type { OIDCConfig } from "next-auth/providers";
import type { OidcConfig } from "@/lib/config";
import { log } from "@/lib/log";

export const OIDC_PROVIDER_ID = "oidc";

/** Why single sign-on refused someone; the sign-in page explains each. */
export type SsoRefusalCode =
  | "sso_issuer"
  | "sso_audience"
  | "sso_signature"
  | "sso_expired"
  | "sso_token"
  | "no_email"
  | "email_taken"
  | "no_workspace"
  | "workspace_missing"
  | "no_membership";

/**
 * Auth.js carries an error's `code` to the sign-in page only for CredentialsSignin,
 * so a refusal is one: the page then names the reason.
 */
export class SsoRefused extends CredentialsSignin {
  constructor(code: SsoRefusalCode) {
    super(`single sign-on refused: ${code}`);
    this.code = code;
  }
}

type Discovered = { jwks: JWTVerifyGetKey };
let discovered: { issuer: string; value: Promise<Discovered> } | undefined;

/** The provider's signing keys, found through its discovery document once per process (jose refetches on an unknown key id). */
function keysOf(issuer: string): Promise<Discovered> {
  if (discovered?.issuer === issuer) return discovered.value;
  const value = (async () => {
    const res = await fetch(`${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(10_000) });
    if (!res.ok) throw new Error(`discovery answered ${res.status}`);
    const doc = (await res.json()) as { issuer?: unknown; jwks_uri?: unknown };
    if (doc.issuer !== issuer) throw new SsoRefused("sso_issuer");
    if (typeof doc.jwks_uri !== "string") throw new Error("the discovery document names no jwks_uri");
    return { jwks: createRemoteJWKSet(new URL(doc.jwks_uri)) };
  })();
  discovered = { issuer, value };
  value.catch(() => {
    if (discovered?.value === value) discovered = undefined;
  });
  return value;
}

function refusalOf(err: unknown): SsoRefusalCode {
  if (err instanceof SsoRefused) return err.code as SsoRefusalCode;
  if (err instanceof errors.JWTExpired) return "sso_expired";
  if (err instanceof errors.JWTClaimValidationFailed) return err.claim === "iss" ? "sso_issuer" : err.claim === "aud" ? "sso_audience" : "sso_token";
  if (err instanceof errors.JWSSignatureVerificationFailed || err instanceof errors.JWKSNoMatchingKey || err instanceof errors.JOSEAlgNotAllowed) return "sso_signature";
  return "sso_token";
}

/** Verifies the ID token in a token endpoint answer; throws SsoRefused naming what was wrong. */
export async function verifyTokenResponse(response: Response, oidc: Pick<OidcConfig, "issuer" | "clientId">): Promise<void> {
  // An error answer, or one without an ID token, is Auth.js's to refuse.
  if (!response.ok) return;
  const body = (await response.clone().json().catch(() => null)) as { id_token?: unknown } | null;
  if (typeof body?.id_token !== "string") return;
  try {
    const { jwks } = await keysOf(oidc.issuer);
    await jwtVerify(body.id_token, jwks, { issuer: oidc.issuer, audience: oidc.clientId, clockTolerance: 30 });
  } catch (err) {
    const code = refusalOf(err);
    // The reason, never the token.
    log.warn(`auth: single sign-on refused an ID token (${code}): ${(err as Error).message}`);
    throw new SsoRefused(code);
  }
}

export function oidcProvider(oidc: OidcConfig): OIDCConfig<Record<string, unknown>> {
  return {
    id: OIDC_PROVIDER_ID,
    name: oidc.name,
    type: "oidc",
    issuer: oidc.issuer,
    clientId: oidc.clientId,
    clientSecret: oidc.clientSecret,
    checks: ["pkce", "state", "nonce"],
    authorization: { params: { scope: "openid email profile" } },
    token: {
      async conform(response: Response) {
        await verifyTokenResponse(response, oidc);
        return response;
      },
    },
    profile(claims) {
      return { id: String(claims.sub), email: typeof claims.email === "string" ? claims.email : null, name: typeof claims.name === "string" ? claims.name : null };
    },
  };
}

/**
 * Next.js rewrites 127.0.0.1 and [::1] in a request's URL to localhost, so Auth.js would send the
 * provider a redirect_uri on another host than the one sign-in started on (which used the Host
 * header), and the provider refuses the code. Single sign-on's requests keep the address the browser used.
 */
export function withBrowserOrigin(req: Request): Request {
  const url = new URL(req.url);
  if (!url.pathname.endsWith(`/${OIDC_PROVIDER_ID}`)) return req;
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host");
  if (!host) return req;
  const proto = req.headers.get("x-forwarded-proto")?.replace(/:$/, "") ?? url.protocol.replace(/:$/, "");
  const browser = new URL(`${url.pathname}${url.search}`, `${proto}://${host}`);
  if (browser.origin === url.origin) return req;
  return new Request(browser, { method: req.method, headers: req.headers, body: req.method === "GET" || req.method === "HEAD" ? undefined : req.body, duplex: "half" } as RequestInit);
}
