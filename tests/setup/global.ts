// Integration tests run against a real PostgreSQL and a real `driftwatch
// start`. With DATABASE_URL set, that server is used; otherwise an embedded
// PostgreSQL is started in a temp directory, exactly as Driftwatch does.
import { spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "@/lib/db/embedded";
import { migrateDatabase } from "@/lib/db/migrate";
import { startRegistry } from "../support/registry";
import { startDriftwatch } from "../support/server";

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

  const server = await startDriftwatch({
    echoStderr: true,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DRIFTWATCH_DATA_DIR: path.join(dataDir, "server"),
      DRIFTWATCH_EOL: "false",
      DRIFTWATCH_SERVER_REGISTRIES: registry.host,
      DRIFTWATCH_INSECURE_REGISTRIES: registry.host,
      DRIFTWATCH_LOG_LEVEL: "warn",
    },
  });
  const baseUrl = server.baseUrl;
  const child = server.child;

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
