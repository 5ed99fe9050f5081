// A real OpenID Connect provider on loopback (the npm package oidc-provider),
// with people who have groups, its development login form (any password),
// and consent granted to the one client. `tamper` makes its token endpoint
// answer with an ID token that a wrong provider would send: another issuer,
// another audience, or a signature by a key it never published.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { decodeJwt, exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import Provider, { type KoaContextWithOIDC } from "oidc-provider";

export type OidcPerson = { email: string; email_verified?: boolean; name?: string; groups?: string[] };
export type Tamper = "none" | "issuer" | "audience" | "signature";

export type RunningOidcProvider = {
  issuer: string;
  tamper: (mode: Tamper) => void;
  close: () => Promise<void>;
};

async function signingKey(kid: string): Promise<{ privateJwk: JWK; key: CryptoKey }> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: "RS256", use: "sig" };
  return { privateJwk, key: privateKey };
}

export async function startOidcProvider(opts: { people: Record<string, OidcPerson>; client: { id: string; secret: string; redirectUri: string } }): Promise<RunningOidcProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const real = await signingKey("real");
  // Same key id as the real one: the receiver must check the signature, not just find a key.
  const stranger = await signingKey("real");
  let mode: Tamper = "none";

  const provider = new Provider(issuer, {
    clients: [{
      client_id: opts.client.id,
      client_secret: opts.client.secret,
      redirect_uris: [opts.client.redirectUri],
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_basic",
    }],
    jwks: { keys: [real.privateJwk] },
    cookies: { keys: ["oidc-test-cookie-key"] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "groups"] },
    // Claims of the granted scopes go into the ID token, as most providers do for groups.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx, id) {
      const person = opts.people[id];
      if (!person) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, ...person }) };
    },
    // The one client is first-party: no consent screen.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const accountId = ctx.oidc.session?.accountId;
      const clientId = ctx.oidc.client?.clientId;
      if (!accountId || !clientId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ accountId, clientId });
      grant.addOIDCScope("openid email profile");
      await grant.save();
      return grant;
    },
  });

  provider.use(async (ctx, next) => {
    await next();
    if (mode === "none" || ctx.path !== "/token" || ctx.status !== 200) return;
    const body = ctx.body as { id_token?: string };
    if (!body.id_token) return;
    const claims = decodeJwt(body.id_token);
    const changed = { ...claims, ...(mode === "issuer" ? { iss: "http://127.0.0.1:9/impostor" } : {}), ...(mode === "audience" ? { aud: "another-application" } : {}) };
    body.id_token = await new SignJWT(changed).setProtectedHeader({ alg: "RS256", kid: "real", typ: "JWT" }).sign(mode === "signature" ? stranger.key : real.key);
  });

  const callback = provider.callback();
  server.on("request", callback);
  return {
    issuer,
    tamper: (m) => {
      mode = m;
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
