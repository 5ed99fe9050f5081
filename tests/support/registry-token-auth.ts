// A token service for the loopback registry (distribution's `auth.token`),
// shaped like Docker Hub's: it issues a token to anyone, but an anonymous
// token carries no access to private repositories, so the registry answers
// 401 insufficient_scope. Signing key and self-signed certificate are made
// here (ES256 JWT, `kid` = libtrust key ID), with no tool besides node:crypto.
import { createHash, generateKeyPairSync, randomUUID, sign, type KeyObject } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export type TokenAuthOptions = {
  /** username → password for Basic auth at the token endpoint. */
  users: Record<string, string>;
  /** Repositories (prefix match on the name) that anonymous tokens cannot pull. */
  privatePrefixes: string[];
};

export type Access = { type: string; name: string; actions: string[] };

export type TokenServer = {
  host: string; // 127.0.0.1:port
  realm: string;
  service: string;
  issuer: string;
  certPem: string;
  requests: { scope: string[]; user: string | null; status: number }[];
  /** A token with exactly this access (the test helpers' push token). */
  mint(access: Access[]): string;
  close(): Promise<void>;
};

// --- minimal DER, enough for one self-signed certificate --------------------
function der(tag: number, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const n = body.length;
  const len = n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), len, body]);
}
const seq = (...p: Buffer[]) => der(0x30, ...p);
const oid = (dotted: string) => {
  const [a = 0, b = 0, ...rest] = dotted.split(".").map(Number);
  const bytes = [40 * a + b];
  for (const v of rest) {
    const chunk = [v & 0x7f];
    for (let x = v >> 7; x > 0; x >>= 7) chunk.unshift((x & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return der(0x06, Buffer.from(bytes));
};
const utcTime = (d: Date) => der(0x17, Buffer.from(d.toISOString().replace(/[-:T]/g, "").slice(2, 14) + "Z"));
const name = (cn: string) => seq(der(0x31, seq(oid("2.5.4.3"), der(0x0c, Buffer.from(cn)))));
const ECDSA_SHA256 = "1.2.840.10045.4.3.2";

function selfSignedCert(publicKey: KeyObject, privateKey: KeyObject, cn: string): string {
  const now = Date.now();
  const tbs = seq(
    der(0xa0, der(0x02, Buffer.from([2]))), // v3
    der(0x02, Buffer.from([1])),
    seq(oid(ECDSA_SHA256)),
    name(cn),
    seq(utcTime(new Date(now - 3600_000)), utcTime(new Date(now + 24 * 3600_000))),
    name(cn),
    publicKey.export({ type: "spki", format: "der" }),
  );
  const signature = sign("sha256", tbs, { key: privateKey, dsaEncoding: "der" });
  const cert = seq(tbs, seq(oid(ECDSA_SHA256)), der(0x03, Buffer.concat([Buffer.from([0]), signature])));
  return `-----BEGIN CERTIFICATE-----\n${cert.toString("base64").replace(/.{64}/g, "$&\n")}\n-----END CERTIFICATE-----\n`;
}

/** docker/libtrust's key ID: SHA-256 of the SPKI, first 240 bits, base32, in groups of four. */
function libtrustKeyId(publicKey: KeyObject): string {
  const bytes = createHash("sha256").update(publicKey.export({ type: "spki", format: "der" })).digest().subarray(0, 30);
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out.match(/.{1,4}/g)?.join(":") ?? out;
}

const b64url = (data: Buffer | string) => Buffer.from(data).toString("base64url");

export async function startTokenServer(opts: TokenAuthOptions): Promise<TokenServer> {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const kid = libtrustKeyId(publicKey);
  const service = "driftwatch-test-registry";
  const issuer = "driftwatch-test-token-issuer";
  const requests: TokenServer["requests"] = [];

  function mint(access: Access[], subject = ""): string {
    const now = Math.floor(Date.now() / 1000);
    const header = b64url(JSON.stringify({ typ: "JWT", alg: "ES256", kid }));
    const claims = b64url(JSON.stringify({ iss: issuer, sub: subject, aud: service, exp: now + 300, nbf: now - 10, iat: now, jti: randomUUID(), access }));
    const signature = sign("sha256", Buffer.from(`${header}.${claims}`), { key: privateKey, dsaEncoding: "ieee-p1363" });
    return `${header}.${claims}.${b64url(signature)}`;
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://token.local");
    const scope = url.searchParams.getAll("scope");
    const reply = (status: number, body: unknown, user: string | null) => {
      requests.push({ scope, user, status });
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    let user: string | null = null;
    const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? "");
    if (basic?.[1]) {
      const [u = "", ...p] = Buffer.from(basic[1], "base64").toString("utf8").split(":");
      if (opts.users[u] === undefined || opts.users[u] !== p.join(":")) return reply(401, { details: "incorrect username or password" }, u);
      user = u;
    }
    if (url.pathname !== "/token" || url.searchParams.get("service") !== service) return reply(400, { details: "bad request" }, user);
    const access: Access[] = scope.flatMap((s) => {
      const [type = "", repo = "", actions = ""] = s.split(":");
      const isPrivate = opts.privatePrefixes.some((p) => repo.startsWith(p));
      const granted = actions.split(",").filter((a) => (user !== null ? true : a === "pull" && !isPrivate));
      return type === "repository" ? [{ type, name: repo, actions: granted }] : [];
    });
    const token = mint(access, user ?? "");
    reply(200, { token, access_token: token, expires_in: 300, issued_at: new Date().toISOString() }, user);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    host,
    realm: `http://${host}/token`,
    service,
    issuer,
    certPem: selfSignedCert(publicKey, privateKey, "driftwatch test token issuer"),
    requests,
    mint: (access) => mint(access, "test-helper"),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
