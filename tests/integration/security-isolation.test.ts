// Workspace isolation on every route of the operations table (so a new route
// is covered, or this test fails until it is), plus /metrics, the MCP tools
// and badges; badge signatures that cannot be moved to another service,
// environment or workspace; and the outbound-destination rules (SSRF) for
// webhooks, Compose-in-Git repositories and forge settings.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createHash, randomUUID } from "node:crypto";
import { lookup } from "node:dns/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Operation } from "@/lib/api/operation";
import { ops } from "@/lib/api/operations";
import { classifyAddress } from "@/lib/net/ip";
import { api, baseUrl, makeWorkspace, request, testDb, type ApiResponse, type TestWorkspace } from "../support/api";
import { recordSecret } from "../support/secrets";
import { sessionCookie, sessionRequest } from "../support/session";

const digest = (s: string) => `sha256:${createHash("sha256").update(s).digest("hex")}`;
const HOUR = 3_600_000;

let a: TestWorkspace;
let b: TestWorkspace;
let aCookie: string;
let bCookie: string;
/** Names and ids that exist only in workspace A: none may appear in any answer B gets. */
const A: { tag: string; service: string; env: string; target: string; team: string; ackId: string; ruleId: string; tokenId: string; ruleName: string } = {} as never;

function workload(service: string, tag: string, since: Date) {
  const image = `registry.example.test/iso/${service}:${tag}`;
  return { service, container: service, main: true, image, digest: digest(image), platform_digest: null, platform: "linux/amd64", since: since.toISOString() };
}

beforeAll(async () => {
  [a, b] = await Promise.all([makeWorkspace("iso-a"), makeWorkspace("iso-b")]);
  [aCookie, bCookie] = await Promise.all([sessionCookie(a.owner.email, a.owner.password), sessionCookie(b.owner.email, b.owner.password)]);
  const tag = randomUUID().slice(0, 6);
  Object.assign(A, { tag, service: `svc-a-${tag}`, env: `env-a-${tag}`, target: `docker@a-${tag}`, team: `team-a-${tag}`, ruleName: `rule-a-${tag}` });
  const now = Date.now();
  expect((await api(a.member).post("/api/v1/environments", { name: A.env, position: 1, production: true })).status).toBe(201);
  const reported = await api(a.agentKey).post("/api/v1/agent/report", {
    environment: A.env, target: { name: A.target, kind: "docker" }, observed_at: new Date(now - 60_000).toISOString(),
    workloads: [workload(A.service, "1.0.0", new Date(now - 48 * HOUR))],
    registry_results: [{ repository: `registry.example.test/iso/${A.service}`, tags: ["1.0.0", "2.0.0"], digests: [], resolved: [], error: null }],
  });
  expect(reported.status).toBe(202);
  expect((await api(a.member).patch(`/api/v1/services/${A.service}`, { team: A.team })).status).toBe(200);
  const ack = await api(a.member).post("/api/v1/acks", { service: A.service, kind: "drift", duration: "7d" });
  expect(ack.status).toBe(201);
  A.ackId = ack.body.id;
  const secret = `whsec-${randomUUID()}`;
  recordSecret("webhook secret", secret);
  const rule = await api(a.member).post("/api/v1/notification-rules", { name: A.ruleName, channel: "webhook", config: { url: "https://hooks.example.com/a", secret } });
  expect(rule.status).toBe(201);
  A.ruleId = rule.body.id;
  const token = await sessionRequest(aCookie, "POST", "/api/v1/tokens", { body: { name: `tok-a-${tag}`, role: "viewer" } });
  expect(token.status).toBe(201);
  recordSecret("API token", token.body.value);
  A.tokenId = token.body.id;
  // B has a service and environment of the same names as A's "web"-like ones elsewhere, but not A's.
  expect((await api(b.member).post("/api/v1/environments", { name: "production", position: 1, production: true })).status).toBe(201);
});

/** Everything A owns, as a fingerprint to compare before and after B's attempts. */
async function snapshotA(): Promise<string> {
  const db = testDb();
  const where = { workspaceId: a.id };
  const parts = await Promise.all([
    db.service.findMany({ where, orderBy: { name: "asc" } }),
    db.environment.findMany({ where, orderBy: { name: "asc" } }),
    db.target.findMany({ where, orderBy: { name: "asc" }, select: { id: true, name: true, config: true, environmentId: true } }),
    db.ack.findMany({ where, orderBy: { id: "asc" } }),
    db.notificationRule.findMany({ where, orderBy: { id: "asc" } }),
    db.apiToken.findMany({ where, orderBy: { id: "asc" }, select: { id: true, name: true, role: true, revokedAt: true } }),
    db.agentKey.findMany({ where, orderBy: { id: "asc" }, select: { id: true, revokedAt: true } }),
  ]);
  return JSON.stringify(parts);
}

/** `sent`: what the request itself said (a 404 may name what was asked for; that is no leak). */
function expectNoLeak(res: { text: string }, what: string, sent = "") {
  for (const value of [A.service, A.env, A.target, A.team, A.ackId, A.ruleId, A.tokenId, A.ruleName, a.id, a.name]) {
    if (sent.includes(value)) continue;
    expect(res.text.includes(value), `${what} leaks ${value}: ${res.text.slice(0, 300)}`).toBe(false);
  }
}

/** A's object for each path parameter: a new route with a parameter not listed here fails the test until it is. */
function paramFor(path: string, param: string): string {
  if (param === "name" && path.startsWith("/api/v1/services/")) return A.service;
  if (param === "name" && path.startsWith("/api/v1/environments/")) return A.env;
  if (param === "id" && path.startsWith("/api/v1/acks/")) return A.ackId;
  if (param === "id" && path.startsWith("/api/v1/notification-rules/")) return A.ruleId;
  if (param === "id" && path.startsWith("/api/v1/tokens/")) return A.tokenId;
  throw new Error(`security-isolation: no object of workspace A for {${param}} in ${path}; add one to paramFor()`);
}

/**
 * A valid body for every operation that takes one. Bodies point at A's objects
 * where a field refers to one (an ack's service, a rule's filter); objects B
 * creates get names of B's own, so later lookups of A's names stay 404.
 */
function bodyFor(op: Operation): unknown {
  const bodies: Record<string, unknown> = {
    createEnvironment: { name: `b-env-${A.tag}`, position: 5 },
    updateEnvironment: { position: 7, production: false },
    createService: { name: `b-svc-${A.tag}`, team: "b-team" },
    updateService: { team: "stolen" },
    createAck: { service: A.service, kind: "drift", environment: A.env, duration: "1d" },
    createNotificationRule: { name: A.ruleName, channel: "webhook", config: { url: "https://hooks.example.com/b", secret: "b-secret-0123456789" }, services: [A.service] },
    updateNotificationRule: { name: "stolen" },
    createTarget: { name: `compose@b-${A.tag}`, environment: "production", kind: "compose_git", repository_url: "file:///nonexistent/b.git", paths: ["compose.yml"] },
    createToken: { name: "b", role: "viewer" },
    postAgentReport: { environment: "production", target: { name: `docker@b-${A.tag}`, kind: "docker" }, observed_at: new Date().toISOString(), workloads: [] },
    askGate: { service: A.service, environment: A.env, version: "1.0.0" },
  };
  if (!(op.id in bodies)) throw new Error(`security-isolation: no sample body for ${op.id}; add one to bodyFor()`);
  return bodies[op.id];
}

/** Query strings naming A's objects, for the operations that filter by them. */
const QUERY: Record<string, string> = {
  listHistory: `?service=${"SVC"}&environment=${"ENV"}`,
  listDrifts: "?service=SVC&environment=ENV&state=resolved",
  getBadgeAddress: "?env=ENV",
};

async function asB(op: Operation, path: string, body: unknown): Promise<ApiResponse> {
  // Admin routes need a session (tokens are viewer or member); the rest use B's member token, or B's agent key.
  if (op.auth === "admin") {
    const res = await sessionRequest(bCookie, op.method, path, { body });
    return { status: res.status, headers: res.headers, body: res.body, text: res.text, contentType: res.headers.get("content-type") };
  }
  const token = op.auth === "agent" ? b.agentKey : b.member;
  return request(op.method, path, { token, body });
}

describe("workspace isolation", () => {
  const all = Object.values(ops) as Operation[];

  it(`B's credentials never reach A's objects on any of the ${all.length} operations`, async () => {
    const before = await snapshotA();
    const outcomes: string[] = [];
    // Routes that address an object first, before B creates anything of its own.
    const ordered = [...all].sort((x, y) => Number(y.path.includes("{")) - Number(x.path.includes("{")));
    for (const op of ordered) {
      if (op.auth === "public") continue;
      const params = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      let path = op.path;
      for (const p of params) path = path.replace(`{${p}}`, encodeURIComponent(paramFor(op.path, p)));
      path += (QUERY[op.id] ?? "").replace("SVC", encodeURIComponent(A.service)).replace("ENV", encodeURIComponent(A.env));
      const body = op.body ? bodyFor(op) : undefined;
      const res = await asB(op, path, body);
      outcomes.push(`${op.method} ${op.path}: ${res.status}`);
      expect(res.status, `${op.id}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
      if (params.length > 0) {
        // Addressing A's object by its id or name: it does not exist for B.
        expect(res.status, `${op.id} ${path}: ${res.text.slice(0, 200)}`).toBe(404);
        expect(res.contentType).toMatch(/^application\/problem\+json/);
      }
      expectNoLeak(res, `${op.id} ${path}`, path + JSON.stringify(body ?? null));
    }
    // Whatever B created in its own workspace, A's objects are as they were.
    expect(await snapshotA()).toBe(before);
    expect(outcomes.length).toBeGreaterThanOrEqual(all.filter((o) => o.auth !== "public").length);
  });

  it("the same with B's browser session, for every route that addresses an object", async () => {
    const before = await snapshotA();
    for (const op of all.filter((o) => o.auth !== "public" && o.auth !== "agent" && o.path.includes("{"))) {
      let path = op.path;
      for (const [, p] of op.path.matchAll(/\{(\w+)\}/g)) path = path.replace(`{${p}}`, encodeURIComponent(paramFor(op.path, p!)));
      const body = op.body ? bodyFor(op) : undefined;
      const res = await sessionRequest(bCookie, op.method, path, { body });
      expect(res.status, `${op.id}: ${res.text.slice(0, 200)}`).toBe(404);
      expectNoLeak(res, op.id, path + JSON.stringify(body ?? null));
    }
    expect(await snapshotA()).toBe(before);
  });

  it("A's own credentials do see A's objects (the checks above are not vacuous)", async () => {
    const res = await api(a.viewer).get(`/api/v1/services/${A.service}`);
    expect(res.status).toBe(200);
    expect((await api(a.viewer).get("/metrics")).text).toContain(A.env);
    expect((await api(a.viewer).get("/api/v1/matrix")).text).toContain(A.service);
  });

  it("/metrics with B's token shows nothing of A", async () => {
    const res = await api(b.viewer).get("/metrics");
    expect(res.status).toBe(200);
    expectNoLeak(res, "/metrics");
  });

  it("MCP tools with B's token show nothing of A, even when asked by name", async () => {
    const client = new Client({ name: "isolation", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl()}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${b.viewer}` } } }));
    try {
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThanOrEqual(5);
      for (const tool of tools) {
        const props = Object.keys((tool.inputSchema as { properties?: object }).properties ?? {});
        const args: Record<string, string> = {};
        if (props.includes("name")) args.name = A.service;
        if (props.includes("service")) args.service = A.service;
        if (props.includes("environment")) args.environment = A.env;
        if (props.includes("team")) args.team = A.team;
        const result = await client.callTool({ name: tool.name, arguments: args }).catch((err: Error) => ({ error: err.message }));
        expectNoLeak({ text: JSON.stringify(result) }, `mcp ${tool.name}`, JSON.stringify(args));
      }
    } finally {
      await client.close();
    }
    // A's agent key is not an MCP credential, and no credential is none.
    for (const auth of [`Bearer ${a.agentKey}`, ""]) {
      const res = await fetch(`${baseUrl()}/api/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(auth ? { authorization: auth } : {}) },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "matrix", arguments: {} } }),
      });
      expect([401, 403]).toContain(res.status);
      expectNoLeak({ text: await res.text() }, "mcp without a token");
    }
  });
});

describe("badge signatures", () => {
  let aUrl: URL;
  let bUrl: URL;

  beforeAll(async () => {
    // Both workspaces run a service "web" in "production", so names alone cannot tell them apart.
    for (const ws of [a, b]) {
      const res = await api(ws.agentKey).post("/api/v1/agent/report", {
        environment: "production", target: { name: "docker@badge", kind: "docker" }, observed_at: new Date().toISOString(),
        workloads: [workload("web", "1.0.0", new Date(Date.now() - HOUR)), workload("api", "1.0.0", new Date(Date.now() - HOUR))],
      });
      expect(res.status).toBe(202);
    }
    aUrl = new URL((await api(a.member).get("/api/v1/services/web/badge?env=production")).body.url);
    bUrl = new URL((await api(b.member).get("/api/v1/services/web/badge?env=production")).body.url);
  });

  const load = async (url: URL | string) => {
    const res = await fetch(url, { redirect: "manual" });
    return { status: res.status, text: await res.text() };
  };

  function variant(base: URL, change: { key?: string; file?: string; env?: string | null; sig?: string }): string {
    const [, , key, file] = base.pathname.split("/");
    const u = new URL(`/badge/${change.key ?? key}/${change.file ?? file}`, base);
    const env = change.env === undefined ? base.searchParams.get("env") : change.env;
    if (env !== null) u.searchParams.set("env", env);
    u.searchParams.set("sig", change.sig ?? base.searchParams.get("sig")!);
    return u.toString();
  }

  it("each workspace's own address loads", async () => {
    expect((await load(aUrl)).status).toBe(200);
    expect((await load(bUrl)).status).toBe(200);
    expect(aUrl.searchParams.get("sig")).not.toBe(bUrl.searchParams.get("sig"));
  });

  it("a valid signature moved to another service, environment, workspace or key is a 404", async () => {
    const aKey = aUrl.pathname.split("/")[2]!;
    const bKey = bUrl.pathname.split("/")[2]!;
    const aSig = aUrl.searchParams.get("sig")!;
    const bSig = bUrl.searchParams.get("sig")!;
    const forged = [
      variant(aUrl, { file: "api.svg" }), // another service
      variant(aUrl, { env: null }), // all environments
      variant(aUrl, { env: "staging" }), // another environment
      variant(aUrl, { env: "Production" }),
      variant(aUrl, { file: "WEB.svg" }),
      variant(aUrl, { file: "web.png" }),
      variant(aUrl, { key: bKey }), // A's signature under B's key id
      variant(bUrl, { key: aKey }), // B's signature under A's key id
      variant(aUrl, { sig: bSig }), // B's signature for the same names on A's key
      variant(aUrl, { sig: aSig.slice(0, -1) }),
      variant(aUrl, { sig: aSig + "A" }),
      variant(aUrl, { sig: aSig.toUpperCase() }),
      variant(aUrl, { sig: `${aSig}=` }),
      variant(aUrl, { sig: "" }),
      variant(aUrl, { sig: "A".repeat(aSig.length) }),
    ];
    for (const url of forged) {
      const res = await load(url);
      expect(res.status, url).toBe(404);
      expect(res.text).not.toContain("<svg");
    }
    // Two signatures on one URL: only exactly one valid one is accepted.
    const doubled = new URL(variant(aUrl, { sig: bSig }));
    doubled.searchParams.append("sig", aSig);
    expect((await load(doubled)).status).toBe(404);
  });

  it("B's member cannot get an address for A's service, and viewers get none", async () => {
    expect((await api(b.member).get(`/api/v1/services/${A.service}/badge`)).status).toBe(404);
    expect((await api(a.viewer).get(`/api/v1/services/${A.service}/badge`)).status).toBe(403);
  });
});

describe("outbound destinations (SSRF)", () => {
  const PRIVATE_URLS = [
    "http://127.0.0.1/hook", "http://127.1/hook", "http://2130706433/hook", "http://0x7f000001/hook", "http://0177.0.0.1/hook",
    "http://017700000001/hook", "http://localhost/hook", "http://foo.localhost/hook", "http://[::1]/hook", "http://[::ffff:127.0.0.1]/hook",
    "http://[::ffff:7f00:1]/hook", "http://[0:0:0:0:0:ffff:a00:1]/hook", "http://10.0.0.1/hook", "http://172.16.5.4/hook", "http://192.168.1.1/hook",
    "http://169.254.169.254/latest/meta-data/", "http://[fd00:ec2::254]/", "http://100.100.100.200/", "http://[fe80::1]/hook",
    "http://[fc00::1]/hook", "http://0.0.0.0/hook", "http://[::]/hook", "http://100.64.0.1/hook", "http://[64:ff9b::a9fe:a9fe]/hook",
    "http://[2002:a9fe:a9fe::]/hook", "http://user:pass@hooks.example.com/hook", "file:///etc/passwd", "gopher://127.0.0.1:25/",
  ];
  const ALWAYS = ["http://169.254.169.254/latest/meta-data/", "http://[fd00:ec2::254]/", "http://100.100.100.200/", "http://0.0.0.0/hook", "http://[64:ff9b::a9fe:a9fe]/hook"];

  it(`refuses ${PRIVATE_URLS.length} private, loopback, link-local, metadata and odd-notation webhook addresses for members`, async () => {
    const before = await testDb().notificationRule.count({ where: { workspaceId: b.id } });
    for (const url of PRIVATE_URLS) {
      const res = await api(b.member).post("/api/v1/notification-rules", { name: "ssrf", channel: "webhook", config: { url, secret: "0123456789abcdef-ssrf" } });
      expect(res.status, `${url}: ${res.text.slice(0, 200)}`).toBe(422);
      expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toContain("/config/url");
      const slack = await api(b.member).post("/api/v1/notification-rules", { name: "ssrf", channel: "slack", config: { url } });
      expect(slack.status, `slack ${url}`).toBe(422);
    }
    // Asking for private destinations is an admin's decision.
    const asked = await api(b.member).post("/api/v1/notification-rules", { name: "ssrf", channel: "webhook", config: { url: "http://10.0.0.1/hook", secret: "0123456789abcdef-ssrf" }, allow_private: true });
    expect(asked.status).toBe(403);
    // Not even an admin reaches cloud metadata or the unspecified address.
    for (const url of ALWAYS) {
      const res = await sessionRequest(bCookie, "POST", "/api/v1/notification-rules", { body: { name: "ssrf", channel: "webhook", config: { url, secret: "0123456789abcdef-ssrf" }, allow_private: true } });
      expect(res.status, url).toBe(422);
    }
    expect(await testDb().notificationRule.count({ where: { workspaceId: b.id } })).toBe(before);
  });

  describe("at delivery time", () => {
    let hits: string[] = [];
    let receiver: http.Server;
    let receiverUrl: string;
    let redirector: http.Server;
    let redirectorUrl: string;

    beforeAll(async () => {
      receiver = http.createServer((req, res) => {
        hits.push(`${req.method} ${req.url}`);
        res.end("ok");
      });
      await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
      receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
      redirector = http.createServer((_req, res) => {
        res.writeHead(307, { location: `${receiverUrl}/redirected` });
        res.end();
      });
      await new Promise<void>((r) => redirector.listen(0, "127.0.0.1", r));
      redirectorUrl = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`;
    });

    afterAll(async () => {
      await new Promise((r) => receiver.close(r));
      await new Promise((r) => redirector.close(r));
    });

    it("refuses a host name that resolves to a loopback address, without connecting", async () => {
      // A name that is not an IP literal (so it passes when the rule is saved) but resolves to loopback.
      const name = os.hostname();
      const addresses = (await lookup(name, { all: true })).map((x) => classifyAddress(x.address)?.category);
      expect(addresses.length).toBeGreaterThan(0);
      expect(addresses.every((c) => c !== "public")).toBe(true);
      const port = (receiver.address() as AddressInfo).port;
      const rule = await api(b.member).post("/api/v1/notification-rules", { name: "dns", channel: "webhook", config: { url: `http://${name}:${port}/dns`, secret: "0123456789abcdef-dns" } });
      expect(rule.status, rule.text).toBe(201);
      hits = [];
      const sent = await api(b.member).post(`/api/v1/notification-rules/${rule.body.id}/test`);
      expect(sent.status).toBe(200);
      expect(sent.body.delivered).toBe(false);
      expect(sent.body.error).toMatch(/loopback|private|only public/i);
      expect(hits).toEqual([]);
    });

    it("never follows a redirect, even from a destination an admin allowed", async () => {
      const rule = await sessionRequest(bCookie, "POST", "/api/v1/notification-rules", {
        body: { name: "redirect", channel: "webhook", config: { url: `${redirectorUrl}/hook`, secret: "0123456789abcdef-redirect" }, allow_private: true },
      });
      expect(rule.status, rule.text).toBe(201);
      hits = [];
      const sent = await api(b.member).post(`/api/v1/notification-rules/${rule.body.id}/test`);
      expect(sent.status).toBe(200);
      expect(sent.body.delivered).toBe(false);
      expect(hits).toEqual([]);
    });
  });

  it("refuses Compose-in-Git repositories on private, loopback and metadata hosts for members", async () => {
    const urls = [
      "https://127.0.0.1/r.git", "http://2130706433/r.git", "https://[::ffff:127.0.0.1]/r.git", "https://localhost/r.git", "https://169.254.169.254/r.git",
      "ssh://git@10.0.0.1/r.git", "git://192.168.0.10/r.git", "git@172.16.0.1:group/r.git", "https://user:pw@0x7f.1/r.git", `https://${os.hostname()}/r.git`,
    ];
    const before = await testDb().target.count({ where: { workspaceId: b.id } });
    for (const url of urls) {
      const res = await api(b.member).post("/api/v1/targets", { name: `compose@ssrf-${randomUUID().slice(0, 6)}`, environment: "production", kind: "compose_git", repository_url: url, paths: ["compose.yml"] });
      expect(res.status, `${url}: ${res.text.slice(0, 200)}`).toBe(422);
      expect(res.text).not.toContain("pw@");
    }
    expect(await testDb().target.count({ where: { workspaceId: b.id } })).toBe(before);
  });

  it("refuses forge settings that name any host but the allowed ones", async () => {
    for (const gitlab of ["169.254.169.254/group/project", "127.0.0.1:8080/group/project", "10.0.0.1/group/project", "gitlab.evil.example/group/project", "localhost/group/project"]) {
      const res = await api(b.member).patch(`/api/v1/services/web`, { policy: { gitlab } });
      expect(res.status, gitlab).toBe(422);
      expect(res.body.errors.map((e: { pointer: string }) => e.pointer).join()).toMatch(/\/policy\/gitlab/);
    }
    expect((await api(b.member).patch(`/api/v1/services/web`, { policy: { github: "../../etc/passwd" } })).status).toBe(422);
  });
});
