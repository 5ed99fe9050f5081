// The benchmark's world: a real PostgreSQL (embedded unless DATABASE_URL is
// set), a real registry on loopback, and a real `driftwatch start`, seeded only
// through public paths (agent reports, checks).
import { spawnSync, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { loadConfig, type Config } from "@/lib/config";
import { createDb, type Db } from "@/lib/db/client";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "@/lib/db/embedded";
import { migrateDatabase } from "@/lib/db/migrate";
import { createAgentKey } from "@/lib/services/agent-keys/create";
import { createApiToken } from "@/lib/services/api-tokens/create";
import type { RequestCtx } from "@/lib/services/context";
import { setupWorkspace } from "@/lib/services/workspaces/setup";
import { startRegistry, type TestRegistry } from "@/tests/support/registry";
import { startDriftwatch } from "@/tests/support/server";

const ROOT = path.resolve(import.meta.dirname, "..");

export type Fleet = {
  databaseUrl: string;
  baseUrl: string;
  db: Db;
  config: Config;
  registry: TestRegistry;
  server: ChildProcess;
  /** A fresh workspace with an agent key and member token. */
  workspace: (name: string) => Promise<{ id: string; name: string; agentKey: string; token: string; ctx: RequestCtx }>;
  serverRss: () => number | null;
  stop: () => Promise<void>;
};

/** VmRSS of a process in MB, from /proc/<pid>/status; null when it cannot be read. */
export function rssOf(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]);
    return Number.isFinite(kb) ? kb / 1024 : null;
  } catch {
    return null;
  }
}

/** `registry`: a registry shared across fleets (not stopped with this one). */
export async function startFleet(log: (line: string) => void, opts: { registry?: TestRegistry } = {}): Promise<Fleet> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "driftwatch-bench-"));
  let embedded: EmbeddedPostgres | null = null;
  let databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres(path.join(dir, "db"), { settings: { shared_buffers: "512MB", max_wal_size: "4GB", synchronous_commit: "off" } });
    databaseUrl = embedded.url;
  }
  await migrateDatabase(databaseUrl);
  const registry = opts.registry ?? (await startRegistry());
  log(`registry on ${registry.host}, database ${embedded ? "embedded" : "external"}`);

  const build = spawnSync(process.execPath, [path.join(ROOT, "scripts/build-if-stale.mjs")], { cwd: ROOT, stdio: "inherit" });
  if (build.status !== 0) throw new Error("next build failed");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    DRIFTWATCH_DATA_DIR: path.join(dir, "server"),
    DRIFTWATCH_EOL: "false",
    DRIFTWATCH_SERVER_REGISTRIES: registry.host,
    DRIFTWATCH_INSECURE_REGISTRIES: registry.host,
    DRIFTWATCH_LOG_LEVEL: "warn",
  };
  // The scheduler runs in the benchmark's own process, so checks are timed and counted there.
  const { child: server, baseUrl } = await startDriftwatch({ env, args: ["--no-scheduler"], echoStderr: true });
  const config = loadConfig({ ...env, DATABASE_URL: databaseUrl });
  const db = createDb(databaseUrl, { max: 16 });

  return {
    databaseUrl,
    baseUrl,
    db,
    config,
    registry,
    server,
    serverRss: () => rssOf(server.pid),
    workspace: async (name) => {
      const { workspaceId } = await setupWorkspace({ ctx: { db }, input: { workspace: name, email: `${name}@bench.test`, password: "bench-password" } });
      const ctx: RequestCtx = { db, config, now: new Date(), actor: { kind: "system", workspaceId } };
      const agentKey = (await createAgentKey({ ctx, input: { name: `agent-${Date.now()}` } })).value;
      const token = (await createApiToken({ ctx, input: { name: "bench", role: "member" } })).value;
      return { id: workspaceId, name, agentKey, token, ctx };
    },
    stop: async () => {
      server.kill("SIGTERM");
      await new Promise((r) => server.once("exit", r));
      await db.$disconnect();
      if (!opts.registry) await registry.stop();
      await embedded?.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * POST one report; throws on anything but 202. Node's own HTTP client on kept-alive connections: fetch
 * costs this process more CPU a report, taken from the cores the measured server shares.
 */
export function postReport(baseUrl: string, key: string, body: unknown): Promise<void> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(`${baseUrl}/api/v1/agent/report`, {
      method: "POST", agent: reportAgent,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "content-length": Buffer.byteLength(text) },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => (res.statusCode === 202 ? resolve() : reject(new Error(`report answered ${res.statusCode}: ${Buffer.concat(chunks).toString().slice(0, 300)}`))));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(text);
  });
}
const reportAgent = new http.Agent({ keepAlive: true });

/** Run `fn` over `items` with at most `concurrency` in flight. */
export async function pool<T>(items: T[], concurrency: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      for (let i = next++; i < items.length; i = next++) await fn(items[i]!, i);
    }),
  );
}
