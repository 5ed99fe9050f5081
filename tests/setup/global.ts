// Integration tests run against a real PostgreSQL and a real `driftwatch
// start`. With DATABASE_URL set, that server is used; otherwise an embedded
// PostgreSQL is started in a temp directory, exactly as Driftwatch does.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "@/lib/db/embedded";
import { migrateDatabase } from "@/lib/db/migrate";
import { startRegistry } from "../support/registry";

const ROOT = path.resolve(import.meta.dirname, "../..");

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    baseUrl: string;
    dataDir: string;
    /** A real registry on loopback that the server queries itself (host:port and http URL). */
    registryHost: string;
    registryUrl: string;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url: string, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`driftwatch start exited (${child.exitCode}):\n${output()}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`driftwatch start did not become healthy:\n${output()}`);
}

export default async function setup(project: TestProject) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "driftwatch-test-"));
  let embedded: EmbeddedPostgres | null = null;
  let databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres(path.join(dataDir, "db"), { settings: { fsync: "off", synchronous_commit: "off", full_page_writes: "off" } });
    databaseUrl = embedded.url;
  }
  await migrateDatabase(databaseUrl);
  const registry = await startRegistry();

  const build = spawnSync(process.execPath, [path.join(ROOT, "scripts/build-if-stale.mjs")], { cwd: ROOT, stdio: "inherit" });
  if (build.status !== 0) throw new Error("next build failed");

  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  let output = "";
  const child = spawn(process.execPath, [path.join(ROOT, "bin/driftwatch.mjs"), "start", "--port", String(port)], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DRIFTWATCH_DATA_DIR: path.join(dataDir, "server"),
      DRIFTWATCH_BASE_URL: baseUrl,
      DRIFTWATCH_EOL: "false",
      DRIFTWATCH_SERVER_REGISTRIES: registry.host,
      DRIFTWATCH_INSECURE_REGISTRIES: registry.host,
      DRIFTWATCH_LOG_LEVEL: "warn",
      NODE_ENV: "production",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr!.on("data", (c: Buffer) => {
    output += c.toString();
    process.stderr.write(c);
  });
  await waitForHealth(baseUrl, child, () => output);

  project.provide("databaseUrl", databaseUrl);
  project.provide("baseUrl", baseUrl);
  project.provide("dataDir", dataDir);
  project.provide("registryHost", registry.host);
  project.provide("registryUrl", registry.url);

  return async () => {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
    await registry.stop();
    await embedded?.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
