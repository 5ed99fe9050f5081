// Work that runs beside the web server (and alone in `driftwatch worker`):
// the scheduler's ticks. Each tick is a plain function; this file only times
// them with node-cron and keeps one tick of a kind from overlapping another.
import cron from "node-cron";
import type { Config } from "@/lib/config";
import { createDb } from "@/lib/db/client";
import { log } from "@/lib/log";
import { runCheckTick } from "@/lib/services/upstream/run-check-tick";
import { getUpstreamClients } from "./upstream-clients";

export type BackgroundWork = { stop: () => Promise<void>; runOnce: () => Promise<void> };

export async function startBackgroundWork(opts: { config: Config; databaseUrl: string; schedule?: boolean }): Promise<BackgroundWork> {
  const db = createDb(opts.databaseUrl, { max: 8 });
  const deps = { db, config: opts.config, clients: getUpstreamClients(opts.config), now: () => new Date() };
  let running: Promise<void> | null = null;

  const tick = async () => {
    const checks = await runCheckTick(deps);
    if (checks.leased > 0) {
      const failed = checks.outcomes.filter((o) => o.status === "failed").length;
      log.info(`checked ${checks.leased} repositories${failed ? `, ${failed} failed` : ""}`);
    }
  };
  const runOnce = async () => {
    if (running) return running;
    running = tick()
      .catch((err: unknown) => log.error(`scheduler tick failed: ${String(err)}`))
      .finally(() => {
        running = null;
      });
    return running;
  };

  const task = opts.schedule === false ? null : cron.schedule("* * * * *", () => void runOnce(), { noOverlap: true });
  // New services are due at once: do not wait for the first minute boundary.
  if (opts.schedule !== false) void runOnce();
  return {
    runOnce,
    stop: async () => {
      await task?.stop();
      await running;
      await db.$disconnect();
    },
  };
}
