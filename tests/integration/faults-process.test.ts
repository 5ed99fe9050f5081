// Process faults, each on this file's own PostgreSQL, registry and server so
// they can be stopped and killed: PostgreSQL restarted while agents report and
// a check cycle runs; `driftwatch start` killed with SIGKILL while agents
// report and while it delivers webhooks. Each ends with the data checked for
// loss and duplication. Leases that a killed process leaves behind (5 min) are
// run out by moving `leased_until`, never by faking the clock.
import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFaultProxy, type FaultProxy } from "@/bench/fault-proxy";
import { loadConfig } from "@/lib/config";
import { createDb, type Db } from "@/lib/db/client";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "@/lib/db/embedded";
import { migrateDatabase } from "@/lib/db/migrate";
import type { RequestCtx } from "@/lib/services/context";
import { createAgentKey } from "@/lib/services/agent-keys/create";
import { createRule } from "@/lib/services/notification-rules/create";
import { setupWorkspace } from "@/lib/services/workspaces/setup";
import { startRegistry, type TestRegistry } from "../support/registry";
import { startDriftwatch, type RunningServer } from "../support/server";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PG_SETTINGS = { fsync: "off", synchronous_commit: "off", full_page_writes: "off" };
const D = (n: number) => `sha256:${n.toString(16).padStart(64, "0")}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let dir = "";
let pg: EmbeddedPostgres;
let db: Db;
let registry: TestRegistry;
let proxy: FaultProxy;
let server: RunningServer | null = null;
let port = 0;
const children: ChildProcess[] = [];
const outputs: (() => string)[] = [];
const workers: ChildProcess[] = [];

async function stopChild(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM") {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill(signal);
  await exited;
}
/** What the servers logged as unhandled: shown with a failed expectation. */
const serverErrors = () => outputs.flatMap((o) => o().split("\n").filter((l) => /unhandled error|uncaught|unhandledRejection/i.test(l)));

function serverEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env, DATABASE_URL: pg.url, DRIFTWATCH_DATA_DIR: path.join(dir, "server"), DRIFTWATCH_EOL: "false", DRIFTWATCH_LOG_LEVEL: "info",
    DRIFTWATCH_SERVER_REGISTRIES: proxy.host, DRIFTWATCH_INSECURE_REGISTRIES: proxy.host,
  };
}

async function startServer(scheduler: boolean) {
  server = await startDriftwatch({ env: serverEnv(), port: port || undefined, args: scheduler ? [] : ["--no-scheduler"] });
  port = server.port;
  children.push(server.child);
  outputs.push(server.output);
  return server;
}

async function stopServer(signal: "SIGTERM" | "SIGKILL") {
  await stopChild(server!.child, signal);
  server = null;
}

async function restartPostgres() {
  const before = pg.port;
  await pg.stop();
  await sleep(1500);
  pg = await startEmbeddedPostgres(path.join(dir, "db"), { settings: PG_SETTINGS });
  expect(pg.port).toBe(before);
}

async function workspace(name: string) {
  const { workspaceId } = await setupWorkspace({ ctx: { db }, input: { workspace: name, email: `${name}@faults.test`, password: "faults-password" } });
  const ctx: RequestCtx = { db, config: loadConfig({ ...serverEnv() }), get now() { return new Date(); }, actor: { kind: "system", workspaceId } };
  const agentKey = (await createAgentKey({ ctx, input: { name: `agent-${name}` } })).value;
  return { id: workspaceId, agentKey, ctx };
}

// --- agents that report without pause and retry until acknowledged -----------
type Tally = { acked: number; statuses: Record<string, number>; refused503: number; badRefusals: string[]; networkErrors: number; rounds: number[] };

const newTally = (agents: number): Tally => ({ acked: 0, statuses: {}, refused503: 0, badRefusals: [], networkErrors: 0, rounds: Array(agents).fill(0) });
const T0 = Date.now() - 3 * 3_600_000;

/** Round r of agent a: one workload whose version moves every round, so every acknowledged report is one history row. */
function intakeReport(prefix: string, a: number, r: number) {
  return {
    environment: "production",
    target: { name: `docker@${prefix}-${a}`, kind: "docker" },
    observed_at: new Date(T0 + r * 1000).toISOString(),
    workloads: [{
      service: `${prefix}-svc-${a}`, container: "app", main: true, image: `registry.faults.test/acme/${prefix}-svc-${a}:1.${r}.0`,
      digest: D(a * 100_000 + r + 1), platform_digest: null, platform: "linux/amd64", since: new Date(T0 + r * 1000 - 500).toISOString(),
    }],
  };
}

/** Each agent posts round after round; a refused or unanswered report is retried (503: after Retry-After, capped) until a 202. */
async function runAgents(opts: { prefix: string; agents: number; key: string; tally: Tally; stop: () => boolean }) {
  const { tally } = opts;
  await Promise.all(
    Array.from({ length: opts.agents }, async (_, a) => {
      for (let r = 0; !opts.stop(); r++) {
        const body = JSON.stringify(intakeReport(opts.prefix, a, r));
        for (;;) {
          let res: Response;
          let text: string;
          try {
            res = await fetch(`http://127.0.0.1:${port}/api/v1/agent/report`, { method: "POST", headers: { authorization: `Bearer ${opts.key}`, "content-type": "application/json" }, body, signal: AbortSignal.timeout(30_000) });
            text = await res.text();
          } catch {
            tally.networkErrors++;
            await sleep(250);
            continue;
          }
          tally.statuses[res.status] = (tally.statuses[res.status] ?? 0) + 1;
          if (res.status === 202) {
            tally.acked++;
            tally.rounds[a] = r + 1;
            break;
          }
          const retryAfter = Number(res.headers.get("retry-after"));
          const problem = res.headers.get("content-type")?.startsWith("application/problem+json") ? (JSON.parse(text) as { status?: number; code?: string }) : null;
          if (res.status === 503 && problem?.status === 503 && Number.isInteger(retryAfter) && retryAfter >= 1) {
            tally.refused503++;
            await sleep(Math.min(retryAfter, 2) * 250);
            continue;
          }
          tally.badRefusals.push(`${res.status} ${res.headers.get("content-type")} retry-after=${res.headers.get("retry-after")} ${text.slice(0, 200)}`);
          await sleep(250);
        }
      }
    }),
  );
}

/** Every acknowledged round is one history row, once: per target exactly rounds[a] rows, tags 1.0.0 … 1.(n-1).0. */
async function expectIntakeStored(workspaceId: string, prefix: string, tally: Tally) {
  const targets = await db.target.findMany({ where: { workspaceId, name: { startsWith: `docker@${prefix}-` } }, select: { id: true, name: true } });
  const targetName = new Map(targets.map((t) => [t.id, t.name] as const));
  const rows = await db.run.findMany({ where: { workspaceId, targetId: { in: [...targetName.keys()] } }, select: { tag: true, to: true, targetId: true } });
  for (const [a, rounds] of tally.rounds.entries()) {
    const tags = rows.filter((r) => targetName.get(r.targetId) === `docker@${prefix}-${a}`).map((r) => r.tag).sort();
    const expected = Array.from({ length: rounds }, (_, r) => `1.${r}.0`).sort();
    expect(tags).toEqual(expected);
  }
  expect(rows.filter((r) => r.to === null)).toHaveLength(tally.rounds.length);
  expect(tally.acked).toBe(tally.rounds.reduce((n, r) => n + r, 0));
}

async function until(what: string, test: () => Promise<boolean> | boolean, timeoutMs: number, stepMs = 250) {
  const deadline = Date.now() + timeoutMs;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(stepMs);
  }
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "driftwatch-faults-process-"));
  [pg, registry] = await Promise.all([startEmbeddedPostgres(path.join(dir, "db"), { settings: PG_SETTINGS }), startRegistry()]);
  await migrateDatabase(pg.url);
  db = createDb(pg.url, { max: 4 });
  // Checks go through a slow proxy, so a check cycle lasts long enough to restart PostgreSQL in it.
  proxy = await startFaultProxy({ target: registry.host, delayMs: 150 });
  await startServer(false);
}, 300_000);

afterAll(async () => {
  await Promise.all(children.map((c) => stopChild(c)));
  await db?.$disconnect();
  await proxy?.stop();
  await registry?.stop();
  await pg?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
}, 120_000);

describe("PostgreSQL restarted", () => {
  it("during report intake and a check cycle: acknowledged reports stored once, refusals are 503 with Retry-After, every repository checked", async () => {
    const ws = await workspace("pg-restart");
    const REPOS = 60;
    const names = Array.from({ length: REPOS }, (_, i) => `faults/app-${i}`);
    for (let i = 0; i < names.length; i += 6) {
      await Promise.all(names.slice(i, i + 6).map(async (n) => {
        await registry.pushImage(n, "1.0.0");
        await registry.tagExisting(n, "1.1.0", "1.0.0");
      }));
    }
    const seed = await fetch(`http://127.0.0.1:${port}/api/v1/agent/report`, {
      method: "POST", headers: { authorization: `Bearer ${ws.agentKey}`, "content-type": "application/json" },
      body: JSON.stringify({
        environment: "production", target: { name: "docker@checks", kind: "docker" }, observed_at: new Date().toISOString(),
        workloads: names.map((n, i) => ({ service: `app-${i}`, container: "app", main: true, image: `${proxy.host}/${n}:1.0.0`, digest: null, platform_digest: null, platform: null, since: new Date(T0).toISOString() })),
      }),
    });
    expect(seed.status).toBe(202);
    const repos = () => db.upstreamRepository.findMany({ where: { host: proxy.host }, select: { id: true, checkedAt: true, lastError: true, leasedUntil: true } });
    expect(await repos()).toHaveLength(REPOS);

    // A worker starts its first cycle at once; agents report the whole time.
    let workerLog = "";
    const worker = spawn(process.execPath, [path.join(ROOT, "bin/driftwatch.mjs"), "worker"], { cwd: ROOT, env: serverEnv(), stdio: ["ignore", "pipe", "pipe"] });
    children.push(worker);
    workers.push(worker);
    worker.stdout!.on("data", (c: Buffer) => (workerLog += c.toString()));
    worker.stderr!.on("data", (c: Buffer) => (workerLog += c.toString()));
    let stop = false;
    const tally = newTally(4);
    const agents = runAgents({ prefix: "pgr", agents: 4, key: ws.agentKey, tally, stop: () => stop });

    await until("the check cycle to be under way", async () => (await repos()).filter((r) => r.checkedAt).length >= 5, 120_000);
    const ackedBefore = tally.acked;
    await restartPostgres();
    const checkedAtRestart = (await repos()).filter((r) => r.checkedAt).length;
    const ackedAfterRestart = tally.acked;
    await until("agents to be acknowledged again", () => tally.rounds.every((r) => r >= 3) && tally.acked >= ackedAfterRestart + 12, 120_000);
    stop = true;
    await agents;

    expect(ackedBefore).toBeGreaterThan(0);
    expect(checkedAtRestart).toBeLessThan(REPOS); // the restart fell inside the cycle
    expect(tally.badRefusals, serverErrors().join("\n")).toEqual([]);
    expect(Object.keys(tally.statuses).filter((s) => s !== "202" && s !== "503")).toEqual([]);
    expect(tally.networkErrors).toBe(0);
    await expectIntakeStored(ws.id, "pgr", tally);

    // Checks cut off by the restart keep their 5-minute lease: run it out; the worker's next minute tick takes them.
    await until("the worker's first cycle to end", () => /checked \d+ repositories|scheduler tick failed/.test(workerLog), 120_000);
    await db.$executeRaw`UPDATE upstream_repositories SET leased_until = now() - interval '1 second' WHERE host = ${proxy.host} AND leased_until > now()`;
    await until("every repository to be checked", async () => (await repos()).every((r) => r.checkedAt && r.lastError === null), 150_000, 1000);
    expect(worker.exitCode).toBeNull();
    const tags = await db.upstreamTag.groupBy({ by: ["repositoryId"], where: { repository: { host: proxy.host } }, _count: true });
    expect(tags).toHaveLength(REPOS);
    expect(tags.every((t) => t._count === 2)).toBe(true);
    // The server's own intake rows of the seed report were not duplicated by the retries around the restart.
    const checksTarget = await db.target.findUniqueOrThrow({ where: { workspaceId_name: { workspaceId: ws.id, name: "docker@checks" } }, select: { id: true } });
    expect(await db.run.count({ where: { workspaceId: ws.id, targetId: checksTarget.id } })).toBe(REPOS);

    await stopChild(worker);
    console.log(`pg restart: ${tally.acked} reports acknowledged, ${tally.refused503} refused with 503 and retried, statuses ${JSON.stringify(tally.statuses)}; ${checkedAtRestart}/${REPOS} repositories checked when PostgreSQL stopped`);
  }, 420_000);
});

describe("driftwatch start killed with SIGKILL", () => {
  it("during report intake: nothing acknowledged is lost, nothing is stored twice", async () => {
    const ws = await workspace("kill-intake");
    let stop = false;
    const tally = newTally(4);
    const agents = runAgents({ prefix: "kil", agents: 4, key: ws.agentKey, tally, stop: () => stop });
    await until("agents to report", () => tally.acked >= 20, 60_000);
    const ackedBefore = tally.acked;
    await stopServer("SIGKILL");
    await sleep(500);
    await startServer(false);
    await until("agents to be acknowledged again", () => tally.acked >= ackedBefore + 20 && tally.rounds.every((r) => r >= 3), 120_000);
    stop = true;
    await agents;

    expect(tally.networkErrors).toBeGreaterThan(0); // the agents did see the server go away
    expect(tally.badRefusals, serverErrors().join("\n")).toEqual([]);
    expect(Object.keys(tally.statuses).filter((s) => s !== "202" && s !== "503")).toEqual([]);
    await expectIntakeStored(ws.id, "kil", tally);
    console.log(`kill during intake: ${tally.acked} acknowledged, ${tally.networkErrors} unanswered and retried, statuses ${JSON.stringify(tally.statuses)}`);
  }, 300_000);

  it("during webhook delivery: every event delivered, exactly once per delivery id", async () => {
    for (const w of workers) await stopChild(w); // only the server delivers here
    const ws = await workspace("kill-deliver");
    // A receiver that takes its time, so the kill lands among the sends.
    const hits: { delivery: string; event: string }[] = [];
    const receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        hits.push({ delivery: String(req.headers["x-driftwatch-delivery"] ?? ""), event: (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id: string }).id });
        setTimeout(() => res.writeHead(204).end(), 400);
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      await createRule({ ctx: ws.ctx, input: { name: "hook", channel: "webhook", config: { url, secret: "a-webhook-secret-of-some-length" }, allow_private: true } });
      // 20 services whose two production targets disagree for an hour: 20 announced `inconsistent` drifts.
      const SERVICES = 20;
      const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
      for (const [target, version, since, d] of [["a", "2.0.0", ago(2 * 86_400_000), 1], ["b", "1.9.0", ago(3_600_000), 2]] as const) {
        const res = await fetch(`http://127.0.0.1:${port}/api/v1/agent/report`, {
          method: "POST", headers: { authorization: `Bearer ${ws.agentKey}`, "content-type": "application/json" },
          body: JSON.stringify({
            environment: "production", target: { name: `docker@notify-${target}`, kind: "docker" }, observed_at: new Date().toISOString(),
            workloads: Array.from({ length: SERVICES }, (_, i) => ({ service: `notify-${i}`, container: "app", main: true, image: `registry.faults.test/acme/notify-${i}:${version}`, digest: D(d * 1000 + i), platform_digest: null, platform: null, since })),
          }),
        });
        expect(res.status).toBe(202);
      }
      await until("the drift events", async () => (await db.event.count({ where: { workspaceId: ws.id } })) >= SERVICES, 60_000);

      // A server with its scheduler delivers at once on start; it is killed a few sends in.
      await stopServer("SIGTERM");
      await startServer(true);
      await until("the first deliveries", () => hits.length >= 3, 120_000, 50);
      await stopServer("SIGKILL");
      const hitsAtKill = hits.length;
      const deliveries = () => db.delivery.findMany({ where: { rule: { workspaceId: ws.id } }, select: { id: true, eventId: true, state: true, leasedUntil: true } });
      const atKill = await deliveries();
      expect(atKill.filter((d) => d.state === "sent").length).toBeLessThan(SERVICES);

      // The dead server's leases run out (5 min, moved here); the restarted one sends the rest.
      await db.$executeRaw`UPDATE deliveries SET leased_until = now() - interval '1 second' WHERE leased_until > now() AND rule_id IN (SELECT id FROM notification_rules WHERE workspace_id = ${ws.id}::uuid)`;
      await startServer(true);
      await until("every delivery to be sent", async () => (await deliveries()).every((d) => d.state === "sent") && new Set(hits.map((h) => h.delivery)).size >= SERVICES, 180_000, 500);

      const final = await deliveries();
      const events = await db.event.findMany({ where: { workspaceId: ws.id }, select: { id: true } });
      expect(final).toHaveLength(events.length);
      expect(new Set(hits.map((h) => h.delivery))).toEqual(new Set(final.map((d) => d.id)));
      expect(new Set(hits.map((h) => h.event))).toEqual(new Set(events.map((e) => e.id)));
      // At least once: a send the kill cut off before it was marked is repeated under the same delivery id, and only those.
      const repeats = hits.length - final.length;
      expect(repeats).toBeGreaterThanOrEqual(0);
      expect(repeats).toBeLessThanOrEqual(5); // the delivery loop's concurrency
      const sentBeforeKill = atKill.filter((d) => d.state === "sent").map((d) => d.id);
      const counts = new Map<string, number>();
      for (const h of hits) counts.set(h.delivery, (counts.get(h.delivery) ?? 0) + 1);
      expect(sentBeforeKill.every((id) => counts.get(id) === 1)).toBe(true);
      console.log(`kill during delivery: ${final.length} deliveries, ${hitsAtKill} received before the kill, ${hits.length} received in all (${repeats} repeated under the same delivery id)`);
    } finally {
      await new Promise<void>((resolve) => {
        receiver.closeAllConnections();
        receiver.close(() => resolve());
      });
    }
  }, 420_000);
});
