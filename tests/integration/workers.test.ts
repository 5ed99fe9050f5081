// Two `driftwatch worker` processes on one PostgreSQL split the due checks:
// 500 repositories, each checked exactly once, counted from the registry's
// own access log. Own registry and database, so nothing else competes.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "@/lib/db/client";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "@/lib/db/embedded";
import { migrateDatabase } from "@/lib/db/migrate";
import { startRegistry, type TestRegistry } from "../support/registry";

const ROOT = path.resolve(import.meta.dirname, "../..");
const COUNT = 500;
let dir: string;
let pg: EmbeddedPostgres;
let db: Db;
let registry: TestRegistry;
const workers: ChildProcess[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "driftwatch-workers-"));
  [pg, registry] = await Promise.all([startEmbeddedPostgres(path.join(dir, "db"), { settings: { fsync: "off" } }), startRegistry()]);
  await migrateDatabase(pg.url);
  db = createDb(pg.url, { max: 4 });
  const names = Array.from({ length: COUNT }, (_, i) => `fleet/svc-${i}`);
  for (let i = 0; i < names.length; i += 10) {
    await Promise.all(names.slice(i, i + 10).map((n) => registry.pushImage(n, "1.0.0")));
  }
  await db.upstreamRepository.createMany({
    data: names.map((n) => ({ key: `${registry.host}/${n}`, host: registry.host, path: n, checkedBy: "server" as const, dueAt: new Date(Date.now() - 1000) })),
  });
  await registry.clearLog();
}, 300_000);

afterAll(async () => {
  for (const w of workers) if (w.exitCode === null) w.kill("SIGTERM");
  await Promise.all(workers.map((w) => (w.exitCode === null ? new Promise((r) => w.once("exit", r)) : null)));
  await db?.$disconnect();
  await registry?.stop();
  await pg?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe("several workers on one database", () => {
  it("checks every due repository exactly once per cycle", async () => {
    const env = {
      ...process.env, DATABASE_URL: pg.url, DRIFTWATCH_EOL: "false", DRIFTWATCH_LOG_LEVEL: "info",
      DRIFTWATCH_SERVER_REGISTRIES: registry.host, DRIFTWATCH_INSECURE_REGISTRIES: registry.host, DRIFTWATCH_DATA_DIR: path.join(dir, "worker"),
    };
    const checkedBy = [0, 0];
    for (let i = 0; i < 2; i++) {
      const w = spawn(process.execPath, [path.join(ROOT, "bin/driftwatch.mjs"), "worker"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "inherit"] });
      w.stdout!.on("data", (chunk: Buffer) => {
        for (const m of chunk.toString().matchAll(/checked (\d+) repositories/g)) checkedBy[i]! += Number(m[1]);
      });
      workers.push(w);
    }

    const deadline = Date.now() + 240_000;
    let checked = 0;
    while (Date.now() < deadline) {
      checked = await db.upstreamRepository.count({ where: { checkedAt: { not: null } } });
      if (checked === COUNT) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(checked).toBe(COUNT);
    await registry.syncLog();
    const perRepo = new Map<string, number>();
    for (const e of registry.log) {
      const m = /^\/v2\/(fleet\/svc-\d+)\/tags\/list/.exec(e.path);
      if (m && e.method === "GET") perRepo.set(m[1]!, (perRepo.get(m[1]!) ?? 0) + 1);
    }
    expect(perRepo.size).toBe(COUNT);
    expect([...perRepo.values()].filter((n) => n !== 1)).toEqual([]);
    expect(await db.upstreamRepository.count({ where: { NOT: { lastError: null } } })).toBe(0);
    // Both workers took part, and together they checked each repository once.
    await new Promise((r) => setTimeout(r, 500));
    expect(checkedBy[0]! + checkedBy[1]!).toBe(COUNT);
    expect(Math.min(...checkedBy)).toBeGreaterThan(0);
  }, 300_000);
});
