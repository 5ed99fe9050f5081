// Several processes on one PostgreSQL: two
// `driftwatch start` web servers, both running the scheduler too, and two
// `driftwatch worker` processes, so four schedulers compete for the same due
// work at every minute. Agents report to either server. Each web server has a
// data directory of its own and no AUTH_SECRET, as separate machines would.
//
// Checked: every upstream check done once (the registry's own access log),
// end-of-life data fetched once (the replayed endoflife.date's request log),
// every event delivered once (a webhook receiver counting raw requests and
// delivery ids), a session, an API token and a badge address made on one
// server valid on the other, and both servers answering the same after a
// write to one of them (no in-memory state that lags).
//
// Own database, registry and processes, so nothing else competes for the due
// work. workers.test.ts proves the split at 500 repositories for workers alone.
import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { createDb, type Db } from "@/lib/db/client";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "@/lib/db/embedded";
import { migrateDatabase } from "@/lib/db/migrate";
import { SHARED_AUTH_SECRET_KEY } from "@/lib/server/auth-secret";
import { resetBadgeKey } from "@/lib/services/badges/reset-key";
import type { RequestCtx } from "@/lib/services/context";
import { createAgentKey } from "@/lib/services/agent-keys/create";
import { createApiToken } from "@/lib/services/api-tokens/create";
import { createRule } from "@/lib/services/notification-rules/create";
import { setupWorkspace } from "@/lib/services/workspaces/setup";
import { startRegistry, type TestRegistry } from "../support/registry";
import { fixture, startReplayServer, type ReplayServer } from "../support/replay-server";
import { startDriftwatch, type RunningServer } from "../support/server";

const ROOT = path.resolve(import.meta.dirname, "../..");
/** More than one scheduler leases in one tick (200), so at least two take part. */
const SERVICES = 250;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NEWER = (i: number) => i % 5 === 0; // upstream has 1.1.0 besides 1.0.0
const DIFFERS = (i: number) => i > 0 && i < 10; // the second production target still runs 0.9.0
const DIFFERING = 9;
const svc = (i: number) => `svc-${i}`;
const digest = (n: number) => `sha256:${n.toString(16).padStart(64, "0")}`;

type Hit = { delivery: string; event: string };
type Proc = { name: string; output: () => string; child: ChildProcess };

let dir: string;
let pg: EmbeddedPostgres;
let db: Db;
let registry: TestRegistry;
let eol: ReplayServer;
let receiver: http.Server;
const hits: Hit[] = [];
let hookUrl: string;
let ctx: RequestCtx;
let owner: { email: string; password: string };
let member: string;
let agentKey: string;
let a: RunningServer;
let b: RunningServer;
const procs: Proc[] = [];

async function startWorker(name: string, env: NodeJS.ProcessEnv): Promise<Proc> {
  let output = "";
  const child = spawn(process.execPath, [path.join(ROOT, "bin/driftwatch.mjs"), "worker"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
  const deadline = Date.now() + 120_000;
  while (!output.includes("Driftwatch worker running")) {
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}):\n${output}`);
    if (Date.now() > deadline) throw new Error(`${name} did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { name, output: () => output, child };
}

async function until<T>(what: string, probe: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 200_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: last ${JSON.stringify(v)}\n${procs.map((p) => `--- ${p.name}\n${p.output().slice(-3000)}`).join("\n")}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

type Res = { status: number; body: any; text: string; headers: Headers };
async function call(base: string, method: string, pathname: string, opts: { token?: string; cookie?: string; body?: unknown; origin?: boolean } = {}): Promise<Res> {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.cookie) headers.cookie = opts.cookie;
  if (opts.origin) headers.origin = base;
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(base + pathname, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body), redirect: "manual" });
  const text = await res.text();
  const body = res.headers.get("content-type")?.includes("json") && text ? JSON.parse(text) : text;
  expect(res.status, `${method} ${base}${pathname}: ${text.slice(0, 300)}`).toBeLessThan(500);
  return { status: res.status, body, text, headers: res.headers };
}

const cookiesOf = (res: Response) => res.headers.getSetCookie().map((c) => c.split(";")[0]!);

/** Auth.js credentials sign-in, as the sign-in form does it: the session cookie. */
async function signIn(base: string): Promise<string> {
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookiesOf(csrf).join("; "), origin: base },
    body: new URLSearchParams({ csrfToken, email: owner.email, password: owner.password, callbackUrl: `${base}/` }),
  });
  const session = cookiesOf(res).find((c) => c.startsWith("authjs.session-token="));
  expect(session, `sign-in answered ${res.status} without a session cookie`).toBeDefined();
  return session!;
}

function report(base: string, target: string, workloads: object[], observedAt = new Date()) {
  return call(base, "POST", "/api/v1/agent/report", {
    token: agentKey,
    body: { environment: "production", target: { name: target, kind: "docker" }, observed_at: observedAt.toISOString(), workloads },
  });
}
const workload = (i: number, version: string, since: Date, n: number) => ({
  service: svc(i), container: svc(i), main: true, image: `${registry.host}/fleet/${svc(i)}:${version}`,
  digest: digest(n), platform_digest: null, platform: "linux/amd64", since: since.toISOString(),
});

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "driftwatch-multi-"));
  const nginx = fixture<{ headers: Record<string, string>; body: unknown }>("eol/product-nginx.json");
  const purls = fixture<{ headers: Record<string, string>; body: unknown }>("eol/identifiers-purl.json");
  [pg, registry, eol] = await Promise.all([
    startEmbeddedPostgres(path.join(dir, "db"), { settings: { fsync: "off", max_connections: "150" } }),
    startRegistry(),
    startReplayServer([
      { path: "/api/v1/products/nginx", reply: { status: 200, headers: nginx.headers, body: nginx.body } },
      { path: "/api/v1/identifiers/purl", reply: { status: 200, headers: purls.headers, body: purls.body } },
    ]),
  ]);
  receiver = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      hits.push({ delivery: String(req.headers["x-driftwatch-delivery"] ?? ""), event: String(req.headers["x-driftwatch-event"] ?? "") });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  await migrateDatabase(pg.url);
  db = createDb(pg.url, { max: 4 });
  const pushFleet = async () => {
    for (let i = 0; i < SERVICES; i += 10) {
      await Promise.all(
        Array.from({ length: Math.min(10, SERVICES - i) }, async (_, k) => {
          await registry.pushImage(`fleet/${svc(i + k)}`, "1.0.0");
          if (NEWER(i + k)) await registry.tagExisting(`fleet/${svc(i + k)}`, "1.1.0", "1.0.0");
        }),
      );
    }
  };

  owner = { email: "owner@multi.test", password: "a-password-for-two-servers" };
  const { workspaceId } = await setupWorkspace({ ctx: { db }, input: { workspace: "multi", email: owner.email, password: owner.password } });
  ctx = { db, config: loadConfig({}), get now() { return new Date(); }, actor: { kind: "system", workspaceId } };
  member = (await createApiToken({ ctx, input: { name: "member", role: "member" } })).value;
  agentKey = (await createAgentKey({ ctx, input: { name: "agents" } })).value;
  await createRule({ ctx, input: { name: "hook", channel: "webhook", config: { url: hookUrl, secret: "a-webhook-secret-of-some-length" }, allow_private: true } });

  const env = (name: string): NodeJS.ProcessEnv => {
    const e: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: pg.url,
      DRIFTWATCH_DATA_DIR: path.join(dir, name),
      DRIFTWATCH_EOL: "true",
      DRIFTWATCH_EOL_API_URL: `${eol.url}/api/v1`,
      DRIFTWATCH_SERVER_REGISTRIES: registry.host,
      DRIFTWATCH_INSECURE_REGISTRIES: registry.host,
      DRIFTWATCH_LOG_LEVEL: "info",
    };
    delete e.AUTH_SECRET;
    return e;
  };
  // Nothing is due before the agents report: the images are pushed while the processes start.
  const [sa, sb, w1, w2] = await Promise.all([
    startDriftwatch({ env: env("a") }),
    startDriftwatch({ env: env("b") }),
    startWorker("worker-1", env("w1")),
    startWorker("worker-2", env("w2")),
    pushFleet(),
  ]);
  await registry.clearLog();
  a = sa;
  b = sb;
  procs.push({ name: "start-a", output: a.output, child: a.child }, { name: "start-b", output: b.output, child: b.child }, w1, w2);
}, 300_000);

afterAll(async () => {
  for (const p of procs) if (p.child.exitCode === null) p.child.kill("SIGTERM");
  await Promise.all(procs.map((p) => (p.child.exitCode === null ? new Promise((r) => p.child.once("exit", r)) : null)));
  await db?.$disconnect();
  await new Promise((r) => (receiver ? receiver.close(r) : r(null)));
  await eol?.close();
  await registry?.stop();
  await pg?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe("two web servers and two workers on one database", () => {
  it("agents report to either server; a session, a token and a badge made on one are valid on the other", async () => {
    // Two targets of one environment, one reporting to each server.
    const twoDaysAgo = new Date(Date.now() - 2 * DAY);
    const twoHoursAgo = new Date(Date.now() - 2 * HOUR);
    const all = Array.from({ length: SERVICES }, (_, i) => i);
    const [toA, toB] = await Promise.all([
      report(a.baseUrl, "docker@prod-a", all.map((i) => workload(i, "1.0.0", twoDaysAgo, 1000 + i))),
      report(b.baseUrl, "docker@prod-b", all.map((i) => (DIFFERS(i) ? workload(i, "0.9.0", twoHoursAgo, 5000 + i) : workload(i, "1.0.0", twoDaysAgo, 1000 + i)))),
    ]);
    expect([toA.status, toB.status]).toEqual([202, 202]);
    // End-of-life data for one service: every scheduler would want it at its next tick.
    expect((await call(a.baseUrl, "PATCH", `/api/v1/services/${svc(1)}`, { token: member, body: { policy: { eol: "nginx" } } })).status).toBe(200);

    // A session signed in through A is a session on B (and the other way round).
    const sessionA = await signIn(a.baseUrl);
    const sessionB = await signIn(b.baseUrl);
    for (const [base, cookie] of [[b.baseUrl, sessionA], [a.baseUrl, sessionB]] as const) {
      const matrix = await call(base, "GET", "/api/v1/matrix", { cookie });
      expect(matrix.status).toBe(200);
      expect(matrix.body.services).toHaveLength(SERVICES);
      const page = await call(base, "GET", "/", { cookie });
      expect(page.status).toBe(200);
      expect(page.text).toContain(svc(0));
    }
    // Neither server kept a secret of its own: the one they share lives in the database.
    expect(existsSync(path.join(dir, "a", "auth-secret")) || existsSync(path.join(dir, "b", "auth-secret"))).toBe(false);
    expect(await db.cacheEntry.count({ where: { key: SHARED_AUTH_SECRET_KEY } })).toBe(1);
    expect((await call(b.baseUrl, "GET", "/api/v1/matrix", { cookie: sessionA.replace(/=(.*)$/, (_, v: string) => `=${[...v].reverse().join("")}`) })).status).toBe(401);

    // An API token created on A works on B; revoked on B, A refuses it at once.
    const created = await call(a.baseUrl, "POST", "/api/v1/tokens", { cookie: sessionA, origin: true, body: { name: "made on a", role: "viewer" } });
    expect(created.status).toBe(201);
    expect((await call(b.baseUrl, "GET", "/api/v1/drifts", { token: created.body.value })).status).toBe(200);
    expect((await call(b.baseUrl, "DELETE", `/api/v1/tokens/${created.body.id}`, { cookie: sessionB, origin: true })).status).toBe(204);
    expect((await call(a.baseUrl, "GET", "/api/v1/drifts", { token: created.body.value })).status).toBe(401);

    // A badge address signed by A loads on B; after a key reset, neither loads it, and B's new address loads on A.
    const address = await call(a.baseUrl, "GET", `/api/v1/services/${svc(3)}/badge?env=production`, { token: member });
    expect(address.status).toBe(200);
    const badgePath = new URL(address.body.url).pathname + new URL(address.body.url).search;
    const onB = await call(b.baseUrl, "GET", badgePath);
    expect(onB.status).toBe(200);
    expect(onB.headers.get("content-type")).toContain("image/svg+xml");
    expect(onB.text).toContain(svc(3));
    expect((await call(b.baseUrl, "GET", badgePath.replace(/sig=[^&]+/, "sig=AAAA"))).status).toBe(404);
    await resetBadgeKey({ ctx });
    expect((await call(a.baseUrl, "GET", badgePath)).status).toBe(404);
    expect((await call(b.baseUrl, "GET", badgePath)).status).toBe(404);
    const fresh = await call(b.baseUrl, "GET", `/api/v1/services/${svc(3)}/badge?env=production`, { token: member });
    const freshUrl = new URL(fresh.body.url);
    expect((await call(a.baseUrl, "GET", freshUrl.pathname + freshUrl.search)).status).toBe(200);
  }, 120_000);

  it("checks every repository once, fetches end-of-life data once and delivers every event once, with four schedulers", async () => {
    const expectedUpstream = Array.from({ length: SERVICES }, (_, i) => i).filter((i) => NEWER(i) || DIFFERS(i)).length;
    // The scheduler that checks a repository, or a later tick of any, finds the upstream drift.
    await until("every repository checked and every upstream drift open", async () => ({
      checked: await db.upstreamRepository.count({ where: { checkedAt: { not: null } } }),
      upstream: await db.drift.count({ where: { kind: "upstream", active: true } }),
    }), (v) => v.checked === SERVICES && v.upstream === expectedUpstream);
    await until("end-of-life data stored", () => db.eolProduct.count({ where: { name: "nginx" } }), (n) => n === 1);

    // Checks: one tag list per repository, and no request of the cycle repeated.
    await registry.syncLog();
    const fleet = registry.log.filter((e) => e.path.startsWith("/v2/fleet/"));
    const tagLists = new Map<string, number>();
    for (const e of fleet) {
      const m = /^\/v2\/fleet\/(svc-\d+)\/tags\/list/.exec(e.path);
      if (m && e.method === "GET") tagLists.set(m[1]!, (tagLists.get(m[1]!) ?? 0) + 1);
    }
    expect(tagLists.size).toBe(SERVICES);
    const schedulerLog = procs.map((p) => `--- ${p.name}\n${p.output().split("\n").filter((l) => /checked|fail|error|warn/i.test(l)).join("\n")}`).join("\n");
    expect([...tagLists].filter(([, n]) => n !== 1), schedulerLog).toEqual([]);
    const seen = new Map<string, number>();
    for (const e of fleet) seen.set(`${e.method} ${e.path}`, (seen.get(`${e.method} ${e.path}`) ?? 0) + 1);
    expect([...seen].filter(([, n]) => n > 1)).toEqual([]);
    expect(await db.upstreamRepository.count({ where: { NOT: { lastError: null } } })).toBe(0);
    // At least two of the four schedulers took part, and together they checked each repository once.
    const checkedBy = procs.map((p) => [...p.output().matchAll(/checked (\d+) repositories/g)].reduce((n, m) => n + Number(m[1]), 0));
    expect(checkedBy.reduce((x, y) => x + y, 0)).toBe(SERVICES);
    expect(checkedBy.filter((n) => n > 0).length).toBeGreaterThanOrEqual(2);
    // End of life: the product list and the product, each fetched once by the four schedulers.
    expect(eol.count("/api/v1/identifiers/purl")).toBe(1);
    expect(eol.count("/api/v1/products/nginx")).toBe(1);

    // Events: every one routed to the rule once and received once, by raw count and by delivery id.
    const settled = await until("every event delivered", async () => {
      const events = await db.event.count();
      return {
        events,
        routed: await db.event.count({ where: { routedAt: { not: null } } }),
        deliveries: await db.delivery.count(),
        sent: await db.delivery.count({ where: { state: "sent" } }),
        received: hits.length,
      };
    }, (v) => v.events >= expectedUpstream + DIFFERING && v.routed === v.events && v.deliveries === v.events && v.sent === v.events && v.received >= v.events);
    // One drift_detected per drift opened: evaluations by four schedulers and two servers emitted nothing twice.
    expect(await db.event.count({ where: { type: "drift_detected" } })).toBe(await db.drift.count());
    const received = [...hits];
    const ids = new Set(received.map((h) => h.delivery));
    expect(received.length).toBe(ids.size);
    expect(ids.size).toBeGreaterThanOrEqual(settled.events);
    const deliveryIds = new Set((await db.delivery.findMany({ where: { state: "sent" }, select: { id: true } })).map((d) => d.id));
    expect([...ids].filter((id) => !deliveryIds.has(id))).toEqual([]);
  }, 300_000);

  it("answers the same on both servers right after a report to one", async () => {
    const reads = ["/api/v1/matrix", "/api/v1/updates", "/api/v1/drifts", "/api/v1/promotions", "/api/v1/delivery?window=30d", "/api/v1/history?service=svc-0"];
    // The delivery window ends now, wherever it is asked: compare what is in it.
    const comparable = (p: string, body: any) => (p.startsWith("/api/v1/delivery") ? { ...body, from: undefined, to: undefined } : body);
    const readAll = (base: string) => Promise.all(reads.map(async (p) => comparable(p, (await call(base, "GET", p, { token: member })).body)));
    const agree = () => until("both servers to answer alike", async () => {
      const [x, y] = await Promise.all([readAll(a.baseUrl), readAll(b.baseUrl)]);
      return { same: JSON.stringify(x) === JSON.stringify(y), x, y };
    }, (v) => v.same, 30_000);
    // Both servers have these cached now.
    expect((await agree()).same).toBe(true);

    const cell = (matrix: any) => matrix.services.find((s: { name: string }) => s.name === svc(0)).cells[0];
    const before = await call(b.baseUrl, "GET", "/api/v1/matrix", { token: member });
    expect(cell(before.body).targets.map((t: { tag: string }) => t.tag)).toEqual(["1.0.0", "1.0.0"]);
    expect(cell(before.body).drifts).toContain("upstream");
    const updatesBefore = await call(b.baseUrl, "GET", "/api/v1/updates", { token: member });
    expect(updatesBefore.body.items.some((l: { service: string }) => l.service === svc(0))).toBe(true);

    // svc-0 moves to 1.1.0 on both targets, reported to A.
    const now = new Date();
    const all = Array.from({ length: SERVICES }, (_, i) => i);
    const twoDaysAgo = new Date(now.getTime() - 2 * DAY);
    const twoHoursAgo = new Date(now.getTime() - 2 * HOUR);
    expect((await report(a.baseUrl, "docker@prod-a", all.map((i) => (i === 0 ? workload(0, "1.1.0", now, 9000) : workload(i, "1.0.0", twoDaysAgo, 1000 + i))), now)).status).toBe(202);
    expect((await report(a.baseUrl, "docker@prod-b", all.map((i) => (i === 0 ? workload(0, "1.1.0", now, 9000) : DIFFERS(i) ? workload(i, "0.9.0", twoHoursAgo, 5000 + i) : workload(i, "1.0.0", twoDaysAgo, 1000 + i))), now)).status).toBe(202);

    // B, whose cached answers came before the report, shows what runs now at once...
    const after = await call(b.baseUrl, "GET", "/api/v1/matrix", { token: member });
    expect(cell(after.body).targets.map((t: { tag: string }) => t.tag)).toEqual(["1.1.0", "1.1.0"]);
    // ...and the drift that follows from it as soon as the evaluation the report started has committed.
    const { x, y } = await agree();
    expect(x).toEqual(y);
    const [matrixB, updatesB] = y as [any, any];
    expect(cell(matrixB).drifts).not.toContain("upstream");
    expect(updatesB.items.some((l: { service: string }) => l.service === svc(0))).toBe(false);
  }, 120_000);
});
