// driftwatch worker: the scheduler alone, for deployments that run it apart
// from the web servers. Several workers may share one database.
import type { Command } from "commander";
import { loadConfig } from "@/lib/config";
import { openDatabase } from "@/lib/db/database";
import { migrateDatabase } from "@/lib/db/migrate";
import { log, setLogLevel } from "@/lib/log";
import { startBackgroundWork } from "@/lib/server/background";
import { startDockerHostWatch } from "@/lib/server/docker-host";
import { tuneRuntime } from "@/lib/server/runtime";
import { bool } from "../options";

export function registerWorkerCommand(program: Command) {
  program
    .command("worker")
    .description("run the companion scheduler (checks, drift evaluation, notifications) without the web server")
    .option("--eol <bool>", "end-of-life lookups (false for offline servers)", bool("--eol"))
    .action(async (opts: { eol?: boolean }) => {
      const config = loadConfig(process.env, opts.eol === false ? { eolEnabled: false } : {});
      setLogLevel(config.logLevel);
      tuneRuntime();
      const database = await openDatabase(config, { log: (l) => log.info(l), leaveAdoptedRunning: true });
      await migrateDatabase(database.url, { log: (l) => log.info(l) });
      const work = await startBackgroundWork({ config, databaseUrl: database.url });
      const dockerHost = startDockerHostWatch({ config, databaseUrl: database.url });
      log.info(`Driftwatch worker running (${database.embedded ? "embedded" : "external"} database)`);
      let stopping = false;
      const stop = async (signal: string) => {
        if (stopping) return;
        stopping = true;
        log.info(`${signal}: stopping the worker`);
        await work.stop();
        await dockerHost.stop();
        await database.stop();
        process.exit(0);
      };
      process.on("SIGINT", () => void stop("SIGINT"));
      process.on("SIGTERM", () => void stop("SIGTERM"));
    });
}
