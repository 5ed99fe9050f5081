// driftwatch start: migrate, then serve the web app, the API and the
// scheduler in one process. Stops cleanly on SIGINT/SIGTERM.
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { Command } from "commander";
import { loadConfig, type Config } from "@/lib/config";
import { closeSharedDb } from "@/lib/db/client";
import { openDatabase } from "@/lib/db/database";
import { migrateDatabase } from "@/lib/db/migrate";
import { serveHttp } from "@/lib/http/server";
import { log, setLogLevel } from "@/lib/log";
import { resolveAuthSecret } from "@/lib/server/auth-secret";
import { tuneRuntime } from "@/lib/server/runtime";
import { startBackgroundWork } from "@/lib/server/background";
import { startDockerHostWatch } from "@/lib/server/docker-host";
import { bool, wholeNumber } from "../options";
import { buildWebAppIfStale } from "../web-build";

const ROOT = path.resolve(import.meta.dirname, "../..");

type StartOptions = { port?: string; eol?: boolean; host?: string; scheduler?: boolean };

/** Export the resolved configuration so the Next server's route handlers read the same values. */
function exportConfig(config: Config, databaseUrl: string, authSecret: string) {
  process.env.DATABASE_URL = databaseUrl;
  process.env.AUTH_SECRET = authSecret;
  process.env.PORT = String(config.port);
  process.env.HOST = config.host;
  process.env.DRIFTWATCH_BASE_URL = config.baseUrl;
  process.env.DRIFTWATCH_DATA_DIR = config.dataDir;
  process.env.DRIFTWATCH_EOL = String(config.eolEnabled);
}

export function registerStartCommand(program: Command) {
  program
    .command("start")
    .description("migrate the database, then serve the web app, the API and the scheduler")
    .option("--port <n>", "port to listen on (PORT, default 3000)", (v) => String(wholeNumber("--port", { min: 1, max: 65535 })(v)))
    .option("--host <address>", "address to listen on (HOST, default 127.0.0.1)")
    .option("--eol <bool>", "end-of-life lookups (false for offline servers)", bool("--eol"))
    .option("--no-scheduler", "serve only; run `driftwatch worker` elsewhere for checks and notifications")
    .action(async (opts: StartOptions) => {
      const port = opts.port === undefined ? undefined : Number(opts.port);
      if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65536)) throw new Error(`--port: expected a port number, got ${opts.port}`);
      const config = loadConfig(process.env, {
        ...(port !== undefined ? { port } : {}),
        ...(opts.host ? { host: opts.host } : {}),
        ...(opts.eol === false ? { eolEnabled: false } : {}),
      });
      if (port !== undefined && !process.env.DRIFTWATCH_BASE_URL) config.baseUrl = `http://localhost:${port}`;
      setLogLevel(config.logLevel);
      tuneRuntime();
      buildWebAppIfStale(ROOT);

      const started = Date.now();
      const database = await openDatabase(config, { log: (l) => log.info(l) });
      let stopping = false;
      const stopDatabase = async () => database.stop().catch((err: unknown) => log.warn(`stopping the database: ${String(err)}`));
      let authSecret: string;
      try {
        await migrateDatabase(database.url, { log: (l) => log.info(l) });
        authSecret = await resolveAuthSecret({ configured: config.authSecret, dataDir: config.dataDir, databaseUrl: database.url, embedded: database.embedded });
      } catch (err) {
        await stopDatabase();
        throw err;
      }
      exportConfig(config, database.url, authSecret);

      // tsx turns Node's source-map support on; with it, Node reads and keeps the source map of every
      // chunk of the Next.js build it loads: about 50 MB of an idle server's heap (RSS 390 → 250 MB).
      // Logged stack traces then point into the built and transpiled code.
      process.setSourceMapsEnabled(false);
      // The API's route modules, for the direct API path: loaded by the server once it listens.
      const edge = await serveHttp({ config, root: ROOT, apiRoutes: async () => (await import("@/app/api/route-modules")).apiRouteModules });
      const background = opts.scheduler === false ? null : await startBackgroundWork({ config, databaseUrl: database.url });
      // Probes the Docker socket in the background; runs the watches of this host, if any.
      const dockerHost = startDockerHostWatch({ config, databaseUrl: database.url });
      log.info(`Driftwatch is serving ${config.baseUrl} (listening on ${config.host}:${config.port}, ${database.embedded ? "embedded database" : "external database"}, ready in ${Date.now() - started} ms)`);

      const shutdown = async (signal: string) => {
        if (stopping) return;
        stopping = true;
        log.info(`${signal}: shutting down`);
        const force = setTimeout(() => process.exit(1), 30_000);
        force.unref();
        await background?.stop();
        await dockerHost.stop();
        await edge.close();
        // Bounded: the database stops anyway, and its connections with it.
        await Promise.race([closeSharedDb().catch((err: unknown) => log.warn(`closing the database client: ${String(err)}`)), sleep(5_000)]);
        await stopDatabase();
        process.exit(0);
      };
      process.on("SIGINT", () => void shutdown("SIGINT"));
      process.on("SIGTERM", () => void shutdown("SIGTERM"));
    });
}
