// Attacks on sign-in, sessions and credentials, against the running server:
// brute force (429 with Retry-After, per account and per address, counted in
// the database), cross-site writes with a session cookie, security headers on
// pages and API answers, and API tokens and agent keys (hashed at rest,
// revocable, last use recorded and shown).
import { createHash, randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { Operation } from "@/lib/api/operation";
import { ops } from "@/lib/api/operations";
import { revokeAgentKey } from "@/lib/services/agent-keys/revoke";
import { api, baseUrl, makeWorkspace, request, testDb, type TestWorkspace } from "../support/api";
import { recordSecret } from "../support/secrets";
import { attemptSignIn, sessionCookie, sessionRequest, someAddress } from "../support/session";

let ws: TestWorkspace;
let cookie: string;

beforeAll(async () => {
  ws = await makeWorkspace("sec");
  cookie = await sessionCookie(ws.owner.email, ws.owner.password);
});

function expectProblem(res: { status: number; headers: Headers; text: string }, status: number) {
  expect(res.status, res.text.slice(0, 300)).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  const body = JSON.parse(res.text);
  expect(body).toMatchObject({ type: expect.any(String), title: expect.any(String), status, detail: expect.any(String) });
  return body;
}

describe("sign-in brute force", () => {
  it("locks one account after 5 failures, from any address, with 429 problem+json and Retry-After", async () => {
    const victim = await makeWorkspace("sec-bf");
    for (let i = 0; i < 5; i++) {
      const answer = await attemptSignIn(victim.owner.email, `wrong-${i}`, { ip: someAddress() });
      expect(answer.status, answer.text).toBe(302);
      expect(answer.cookie).toBeNull();
    }
    for (const password of ["wrong-again", victim.owner.password]) {
      const answer = await attemptSignIn(victim.owner.email, password, { ip: someAddress() });
      expect(answer.status).toBe(429);
      expect(answer.contentType).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(answer.text)).toMatchObject({ status: 429, code: "rate_limited" });
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
      expect(Number(answer.retryAfter)).toBeLessThanOrEqual(15 * 60);
      expect(answer.cookie).toBeNull();
      expect(answer.text).not.toContain(password);
    }
    // The e-mail is the same account whatever its case.
    expect((await attemptSignIn(victim.owner.email.toUpperCase(), victim.owner.password, { ip: someAddress() })).status).toBe(429);
    // Counted in the database (so every web server agrees): five failures, no more.
    expect(await testDb().loginAttempt.count({ where: { key: `email:${victim.owner.email}` } })).toBe(5);
  });

  it("limits one address to 20 failures across accounts; other addresses still sign in", async () => {
    const ip = someAddress();
    const other = await makeWorkspace("sec-ip");
    for (let i = 0; i < 20; i++) {
      const answer = await attemptSignIn(`nobody-${randomUUID().slice(0, 8)}@example.test`, "guess", { ip });
      expect(answer.status, answer.text).toBe(302);
    }
    const blocked = await attemptSignIn(other.owner.email, other.owner.password, { ip });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.retryAfter)).toBeGreaterThan(0);
    expect(blocked.cookie).toBeNull();
    const elsewhere = await attemptSignIn(other.owner.email, other.owner.password, { ip: someAddress() });
    expect(elsewhere.status).toBe(302);
    expect(elsewhere.cookie).not.toBeNull();
  });

  it("obeys failures another server wrote to the shared database", async () => {
    const victim = await makeWorkspace("sec-shared");
    const at = new Date();
    await testDb().loginAttempt.createMany({ data: Array.from({ length: 5 }, () => ({ key: `email:${victim.owner.email}`, at })) });
    const answer = await attemptSignIn(victim.owner.email, victim.owner.password, { ip: someAddress() });
    expect(answer.status).toBe(429);
    expect(Number(answer.retryAfter)).toBeGreaterThan(14 * 60);
  });

  it("a success clears the account's failures; failures older than 15 minutes do not count", async () => {
    const user = await makeWorkspace("sec-ok");
    for (let i = 0; i < 4; i++) await attemptSignIn(user.owner.email, "nope", { ip: someAddress() });
    expect((await attemptSignIn(user.owner.email, user.owner.password, { ip: someAddress() })).cookie).not.toBeNull();
    expect(await testDb().loginAttempt.count({ where: { key: `email:${user.owner.email}` } })).toBe(0);
    const old = new Date(Date.now() - 16 * 60_000);
    await testDb().loginAttempt.createMany({ data: Array.from({ length: 10 }, () => ({ key: `email:${user.owner.email}`, at: old })) });
    expect((await attemptSignIn(user.owner.email, user.owner.password, { ip: someAddress() })).cookie).not.toBeNull();
  });
});

// Every operation a browser session can write through: all non-GET routes for users.
const sessionWrites = (Object.values(ops) as Operation[]).filter((op) => op.method !== "GET" && op.auth !== "public" && op.auth !== "agent");
const concretePath = (op: Operation) => op.path.replace("{id}", randomUUID()).replace("{name}", "web");

describe("cross-site writes with a session cookie", () => {
  it(`refuses all ${sessionWrites.length} session write routes from a foreign origin, a cross-site fetch, or with neither header`, async () => {
    expect(sessionWrites.length).toBeGreaterThanOrEqual(10);
    const attempts: { origin?: string | null; fetchSite?: string | null }[] = [
      { origin: "https://evil.example" },
      { origin: "null" },
      { origin: baseUrl().replace("127.0.0.1", "localhost") },
      { origin: null, fetchSite: "cross-site" },
      { origin: null, fetchSite: "same-site" },
      { origin: null },
    ];
    for (const op of sessionWrites) {
      for (const attempt of attempts) {
        const res = await sessionRequest(cookie, op.method, concretePath(op), { ...attempt, body: {} });
        const body = expectProblem(res, 403);
        expect(body.detail, `${op.id} ${JSON.stringify(attempt)}`).toMatch(/cross-site/i);
      }
    }
    // Nothing was written.
    expect((await api(ws.viewer).get("/api/v1/environments")).body.items).toEqual([]);
  });

  it("accepts the same writes from the app's own origin", async () => {
    const created = await sessionRequest(cookie, "POST", "/api/v1/environments", { body: { name: "csrf-ok", position: 1 } });
    expect(created.status, created.text).toBe(201);
    const byFetchSite = await sessionRequest(cookie, "PATCH", "/api/v1/environments/csrf-ok", { origin: null, fetchSite: "same-origin", body: { position: 2 } });
    expect(byFetchSite.status, byFetchSite.text).toBe(200);
    // Cross-site reads are harmless (the answer is not readable cross-site) and allowed.
    expect((await sessionRequest(cookie, "GET", "/api/v1/environments", { origin: "https://evil.example" })).status).toBe(200);
  });

  it("does not ask the same of Bearer tokens, which a browser never sends on its own", async () => {
    const res = await request("POST", "/api/v1/environments", { token: ws.member, body: { name: "by-token", position: 3 }, headers: { origin: "https://evil.example" } });
    expect(res.status).toBe(201);
  });

  it("keeps the session cookie HttpOnly and SameSite=Lax", async () => {
    const csrf = await fetch(`${baseUrl()}/api/auth/csrf`);
    const jar = csrf.headers.getSetCookie().map((c) => `${c.split(";")[0]}`).join("; ");
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const res = await fetch(`${baseUrl()}/api/auth/callback/credentials`, {
      method: "POST", redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar, "x-forwarded-for": someAddress() },
      body: new URLSearchParams({ csrfToken, email: ws.owner.email, password: ws.owner.password }),
    });
    const session = res.headers.getSetCookie().find((c) => c.includes("session-token"));
    expect(session).toBeDefined();
    expect(session).toMatch(/;\s*HttpOnly/i);
    expect(session).toMatch(/;\s*SameSite=Lax/i);
  });

  it("Auth.js's own routes need its CSRF token: no session without it, no sign-out without it", async () => {
    const answer = await attemptSignIn(ws.owner.email, ws.owner.password, { ip: someAddress(), csrf: false });
    expect(answer.cookie).toBeNull();
    expect(answer.location ?? "").toMatch(/error=MissingCSRF/);
    const signOut = await fetch(`${baseUrl()}/api/auth/signout`, {
      method: "POST", redirect: "manual",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example" },
      body: new URLSearchParams({ callbackUrl: "https://evil.example/" }),
    });
    expect(signOut.headers.getSetCookie().some((c) => /session-token=;|session-token=\s*;/.test(c))).toBe(false);
    // The session still works.
    expect((await sessionRequest(cookie, "GET", "/api/v1/environments")).status).toBe(200);
  });
});

describe("security headers", () => {
  const COMMON = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "x-frame-options": "DENY",
  };

  function expectCommon(res: Response, what: string) {
    for (const [k, v] of Object.entries(COMMON)) expect(res.headers.get(k), `${what}: ${k}`).toBe(v);
    expect(res.headers.get("permissions-policy"), what).toMatch(/camera=\(\).*microphone=\(\).*geolocation=\(\)/);
    expect(res.headers.get("x-powered-by"), what).toBeNull();
  }

  it("pages: a strict policy with a fresh nonce on every script Next renders", async () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${baseUrl()}/signin`);
      expect(res.status).toBe(200);
      expectCommon(res, "/signin");
      const policy = res.headers.get("content-security-policy") ?? "";
      const directives = new Map(policy.split(";").map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k!, v]));
      const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(policy)?.[1];
      expect(nonce, policy).toBeDefined();
      nonces.add(nonce!);
      expect(directives.get("script-src")).toEqual(expect.arrayContaining([`'nonce-${nonce}'`, "'strict-dynamic'"]));
      expect(directives.get("script-src")).not.toContain("'unsafe-inline'");
      expect(directives.get("script-src")).not.toContain("'unsafe-eval'");
      expect(directives.get("object-src")).toEqual(["'none'"]);
      expect(directives.get("base-uri")).toEqual(["'none'"]);
      expect(directives.get("frame-ancestors")).toEqual(["'none'"]);
      expect(directives.get("form-action")).toEqual(["'self'"]);
      const html = await res.text();
      const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
      expect(scripts.length).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    }
    expect(nonces.size).toBe(2);
  });

  it("API, metrics, health, unknown routes and static files: the same headers, and a policy that allows nothing", async () => {
    const signin = await (await fetch(`${baseUrl()}/signin`)).text();
    const asset = /\/_next\/static\/[^"']+\.js/.exec(signin)?.[0];
    expect(asset).toBeDefined();
    const cases: [string, RequestInit, number][] = [
      ["/api/v1/services", { headers: { authorization: `Bearer ${ws.viewer}` } }, 200],
      ["/api/v1/services", {}, 401],
      ["/api/v1/no-such-route", {}, 404],
      ["/metrics", { headers: { authorization: `Bearer ${ws.viewer}` } }, 200],
      ["/api/health", {}, 200],
      ["/api/v1/openapi.yaml", {}, 200],
    ];
    for (const [path, init, status] of cases) {
      const res = await fetch(baseUrl() + path, init);
      expect(res.status, path).toBe(status);
      expectCommon(res, path);
      expect(res.headers.get("content-security-policy"), path).toMatch(/^default-src 'none'.*frame-ancestors 'none'/);
    }
    const staticRes = await fetch(baseUrl() + asset!);
    expect(staticRes.status).toBe(200);
    expectCommon(staticRes, asset!);
  });
});

/** Every row of every table in the database, as text. */
async function dumpDatabase(): Promise<string> {
  const db = testDb();
  const tables = await db.$queryRawUnsafe<{ name: string }[]>(
    "SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) AS name FROM information_schema.tables WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')",
  );
  const parts: string[] = [];
  for (const { name } of tables) {
    const rows = await db.$queryRawUnsafe<{ row: string }[]>(`SELECT t::text AS row FROM ${name} t`);
    parts.push(...rows.map((r) => r.row));
  }
  expect(tables.length).toBeGreaterThan(20);
  return parts.join("\n");
}

describe("API tokens and agent keys", () => {
  it("are stored only as their SHA-256, as are passwords only as a slow hash", async () => {
    const created = await sessionRequest(cookie, "POST", "/api/v1/tokens", { body: { name: "dump-check", role: "viewer" } });
    expect(created.status).toBe(201);
    recordSecret("API token", created.body.value);
    const dump = await dumpDatabase();
    for (const secret of [ws.viewer, ws.member, ws.agentKey, created.body.value]) {
      expect(dump.includes(secret)).toBe(false);
      // The secret part never appears, even without its prefix.
      expect(dump.includes(secret.slice(secret.indexOf("_") + 1))).toBe(false);
      expect(dump).toContain(createHash("sha256").update(secret).digest("hex"));
    }
    expect(dump.includes(ws.owner.password)).toBe(false);
    expect(dump).toMatch(/\$argon2id\$/);
  });

  it("refuse a changed, truncated or prefix-only value, without echoing it", async () => {
    const flipped = ws.viewer.slice(0, -1) + (ws.viewer.endsWith("A") ? "B" : "A");
    const [{ prefix }] = (await sessionRequest(cookie, "GET", "/api/v1/tokens")).body.items.filter((t: { name: string }) => t.name === "viewer");
    for (const value of [flipped, ws.viewer.slice(0, -4), prefix, ws.viewer + "x", ws.viewer.toUpperCase()]) {
      const res = await request("GET", "/api/v1/services", { token: value });
      expectProblem(res, 401);
      expect(res.text).not.toContain(value);
    }
  });

  it("can be revoked: a revoked token or agent key gets 401 at once", async () => {
    const created = await sessionRequest(cookie, "POST", "/api/v1/tokens", { body: { name: "to-revoke", role: "member" } });
    const token = created.body.value as string;
    recordSecret("API token", token);
    expect((await api(token).get("/api/v1/services")).status).toBe(200);
    expect((await sessionRequest(cookie, "DELETE", `/api/v1/tokens/${created.body.id}`)).status).toBe(204);
    expectProblem(await request("GET", "/api/v1/services", { token }), 401);
    expectProblem(await request("POST", "/api/v1/environments", { token, body: { name: "late", position: 9 } }), 401);

    const agent = await makeWorkspace("sec-agent");
    const report = { environment: "prod", target: { name: "docker@a", kind: "docker" }, observed_at: new Date().toISOString(), workloads: [] };
    expect((await api(agent.agentKey).post("/api/v1/agent/report", report)).status).toBe(202);
    const key = await testDb().agentKey.findFirstOrThrow({ where: { workspaceId: agent.id } });
    // What the agents page's Revoke button calls.
    await revokeAgentKey({ ctx: agent.ctx, input: { id: key.id } });
    expectProblem(await request("POST", "/api/v1/agent/report", { token: agent.agentKey, body: report }), 401);
  });

  it("record when they were last used, shown in the API list and on the tokens page", async () => {
    const created = await sessionRequest(cookie, "POST", "/api/v1/tokens", { body: { name: "last-use", role: "viewer" } });
    recordSecret("API token", created.body.value);
    const before = (await sessionRequest(cookie, "GET", "/api/v1/tokens")).body.items.find((t: { id: string }) => t.id === created.body.id);
    expect(before.last_used_at).toBeNull();
    const t0 = Date.now();
    expect((await api(created.body.value).get("/api/v1/services")).status).toBe(200);
    const after = (await sessionRequest(cookie, "GET", "/api/v1/tokens")).body.items.find((t: { id: string }) => t.id === created.body.id);
    expect(Date.parse(after.last_used_at)).toBeGreaterThanOrEqual(t0 - 2_000);
    const page = await sessionRequest(cookie, "GET", "/settings/tokens");
    expect(page.status).toBe(200);
    const shown = after.last_used_at.replace("T", " ").slice(0, 16) + " UTC";
    const row = /<tr[^>]*>(?:(?!<\/tr>).)*last-use(?:(?!<\/tr>).)*<\/tr>/s.exec(page.text)?.[0] ?? "";
    expect(row).toContain(shown);

    const agentKey = await testDb().agentKey.findFirstOrThrow({ where: { workspaceId: ws.id } });
    const report = { environment: "prod", target: { name: "docker@last-use", kind: "docker" }, observed_at: new Date().toISOString(), workloads: [] };
    expect((await api(ws.agentKey).post("/api/v1/agent/report", report)).status).toBe(202);
    const used = await testDb().agentKey.findUniqueOrThrow({ where: { id: agentKey.id } });
    expect(used.lastUsedAt).not.toBeNull();
    const agentsPage = await sessionRequest(cookie, "GET", "/settings/agents");
    expect(agentsPage.text).toContain(`dateTime="${used.lastUsedAt!.toISOString()}"`);
  });
});
