// Integration tests run against a real PostgreSQL and a real `driftwatch
// start`. With DATABASE_URL set, that server is used; otherwise an embedded
// PostgreSQL is started in a temp directory, exactly as Driftwatch does.
import { randomUUID } from "node:crypto";
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { appendFile, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "@/lib/db/embedded";
import { migrateDatabase } from "@/lib/db/migrate";
import { channelSecrets } from "@/lib/adapters/channels";
import { closeDb, createDb } from "@/lib/db/client";
import { HTPASSWD_USER, startRegistry } from "../support/registry";
import { recordSecret, RUN_DIR_ENV, SECRETS_FILE } from "../support/secrets";
import { startDriftwatch, type RunningServer } from "../support/server";

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
  // The run directory: every server's output and every secret the tests hand
  // out, checked against each other at the end (scripts/check-secrets-in-logs.mjs).
  // scripts/test.sh passes its own, to check again after the run.
  const runDir = process.env[RUN_DIR_ENV] || path.join(dataDir, "run");
  mkdirSync(runDir, { recursive: true });
  process.env[RUN_DIR_ENV] = runDir;
  recordSecret("registry credential", `${HTPASSWD_USER.username}:${HTPASSWD_USER.password}`);
  recordSecret("registry credential", Buffer.from(`${HTPASSWD_USER.username}:${HTPASSWD_USER.password}`).toString("base64"));
  // The server signs in to Docker Hub as the tests' own account: the token must never reach a log or a page.
  const dockerHubToken = `dckr_pat_${randomUUID().replace(/-/g, "")}`;
  recordSecret("Docker Hub token", dockerHubToken);
  // The registry first: a missing binary is the likeliest failure, and it leaves nothing running.
  const registry = await startRegistry();
  let embedded: EmbeddedPostgres | null = null;
  let databaseUrl: string;
  let server: RunningServer;
  try {
    databaseUrl = process.env.DATABASE_URL || (embedded = await startEmbeddedPostgres(path.join(dataDir, "db"), { settings: { fsync: "off", synchronous_commit: "off", full_page_writes: "off" } })).url;
    await migrateDatabase(databaseUrl);
    server = await startServer(databaseUrl, dataDir, registry.host, dockerHubToken);
  } catch (err) {
    // A setup that fails leaves no server behind (a PostgreSQL outlives its parent by design).
    await registry.stop();
    await embedded?.stop();
    await rm(dataDir, { recursive: true, force: true });
    throw err;
  }
  const baseUrl = server.baseUrl;
  const child = server.child;

  project.provide("databaseUrl", databaseUrl);
  project.provide("baseUrl", baseUrl);
  project.provide("dataDir", dataDir);
  project.provide("registryHost", registry.host);
  project.provide("registryUrl", registry.url);

  return async () => {
    await recordStoredSecrets(databaseUrl, runDir).catch((err: unknown) => console.error(`secrets check: could not read stored secrets: ${String(err)}`));
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
    await registry.stop();
    await embedded?.stop();
    const check = spawnSync(process.execPath, [path.join(ROOT, "scripts/check-secrets-in-logs.mjs"), runDir], { encoding: "utf8" });
    process.stderr.write(check.stdout + check.stderr);
    // A run directory passed in (scripts/test.sh) lives outside and stays; the database and servers' files go.
    await rm(dataDir, { recursive: true, force: true });
    if (check.status !== 0) throw new Error("a secret used by the tests appears in the server's log (see above)");
  };
}

/** The tests' `driftwatch start`, on the run's database and registry (built first if its sources changed). */
async function startServer(databaseUrl: string, dataDir: string, registryHost: string, dockerHubToken: string) {
  const build = spawnSync(process.execPath, [path.join(ROOT, "scripts/build-if-stale.mjs")], { cwd: ROOT, stdio: "inherit" });
  if (build.status !== 0) throw new Error("next build failed");

  return startDriftwatch({
    echoStderr: true,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DRIFTWATCH_DATA_DIR: path.join(dataDir, "server"),
      DRIFTWATCH_EOL: "false",
      DRIFTWATCH_SERVER_REGISTRIES: registryHost,
      DRIFTWATCH_INSECURE_REGISTRIES: registryHost,
      DRIFTWATCH_DOCKERHUB_USERNAME: "driftwatch-tests",
      DRIFTWATCH_DOCKERHUB_TOKEN: dockerHubToken,
      // Everything is logged (to the run's log file; only warnings and errors are echoed),
      // so the secrets check sees every line the server could print.
      DRIFTWATCH_LOG_LEVEL: "debug",
    },
  });
}

/** Webhook secrets and header values that tests stored in notification rules (the database is the one place they are all known). */
async function recordStoredSecrets(databaseUrl: string, runDir: string) {
  const db = createDb(databaseUrl, { max: 1 });
  try {
    const rows = await db.$queryRawUnsafe<{ channel: string; config: unknown }[]>("SELECT channel, config FROM notification_rules");
    const lines: string[] = [];
    for (const { channel, config } of rows) {
      const c = (config ?? {}) as { secret?: unknown; headers?: Record<string, unknown>; url?: unknown };
      if (channel === "webhook") {
        // A generic webhook's address is not a secret (the tests' receivers are named in logs); its secret and headers are.
        if (typeof c.secret === "string") lines.push(JSON.stringify({ kind: "webhook secret", value: c.secret }));
        for (const v of Object.values(c.headers ?? {})) if (typeof v === "string") lines.push(JSON.stringify({ kind: "webhook header", value: v }));
        continue;
      }
      // Every other kind's secrets by its own rule: tokens, routing keys, passwords, addresses that carry a token.
      for (const value of channelSecrets(channel, config)) lines.push(JSON.stringify({ kind: `${channel} secret`, value }));
    }
    if (lines.length) await appendFile(path.join(runDir, SECRETS_FILE), lines.join("\n") + "\n");
  } finally {
    await closeDb(db);
  }
}
