// Work that runs beside the web server (and alone in `driftwatch worker`):
// the scheduler's ticks. Each tick is a plain function; this file only times
// them with node-cron and keeps one tick of a kind from overlapping another.
import cron from "node-cron";
import type { Config } from "@/lib/config";
import { closeDb, createDb } from "@/lib/db/client";
import { HostWarnings } from "@/lib/domain/upstream";
import { log } from "@/lib/log";
import { evaluateAll } from "@/lib/services/drift/evaluate-all";
import { deliverDue } from "@/lib/services/notifications/deliver";
import { routeEvents } from "@/lib/services/notifications/route-events";
import { weeklyPlanTick } from "@/lib/services/notifications/weekly-plan";
import { refreshComposeTargets } from "@/lib/services/targets/refresh-compose";
import { pruneInsightWrites } from "@/lib/services/cache/insights-cache";
import { retentionTick } from "@/lib/services/retention/prune";
import { runCheckTick } from "@/lib/services/upstream/run-check-tick";
import { checkWarningLines } from "./check-warnings";
import { getUpstreamClients } from "./upstream-clients";

export type BackgroundWork = { stop: () => Promise<void>; runOnce: () => Promise<void> };

export async function startBackgroundWork(opts: { config: Config; databaseUrl: string; schedule?: boolean }): Promise<BackgroundWork> {
  const db = createDb(opts.databaseUrl, { max: 8 });
  const upstream = { db, config: opts.config, clients: getUpstreamClients(opts.config) };
  let running: Promise<void> | null = null;
  // A failing registry is one warning per host per hour, not a line per repository.
  const hostWarnings = new HostWarnings();

  const tick = async () => {
    // Each tick below reads the clock once, when it starts.
    const checkedAt = new Date();
    const checks = await runCheckTick({ ...upstream, now: checkedAt });
    // Label reads run in ticks that lease no check too: their 429s are warned of either way.
    for (const line of checkWarningLines(checks.outcomes, hostWarnings, checkedAt, checks.labels.refused)) log.warn(line);
    if (checks.leased > 0) {
      // One summary line a tick; the reasons go out as the per-host warnings above.
      const failed = checks.outcomes.filter((o) => o.status === "failed").length;
      log.info(`checked ${checks.leased} repositories${failed ? `, ${failed} failed` : ""}`);
    }
    const compose = await refreshComposeTargets({ ctx: { db, config: opts.config, now: new Date() } });
    for (const c of compose.filter((o) => !o.ok)) log.warn(`compose target ${c.target}: ${c.error}`);
    await driftAndNotificationsTick();
    // Hourly at most, whichever process gets there first.
    await retentionTick({ ctx: { db, config: opts.config, now: new Date() } });
    await pruneInsightWrites(db);
  };
  // Drift from what the checks just learned, then the outbox: fan out, deliver, and the weekly plan.
  const driftAndNotificationsTick = async () => {
    const drift = await evaluateAll({ ctx: { db, config: opts.config, now: new Date() } });
    if (drift.failed > 0) log.warn(`drift evaluation failed for ${drift.failed} workspaces`);
    await weeklyPlanTick({ ctx: { db, config: opts.config, now: new Date() } });
    await routeEvents({ ctx: { db, now: new Date() } });
    const sent = await deliverDue({ ctx: { db, config: opts.config, now: new Date() } });
    if (sent.leased > 0) log.info(`notifications: ${sent.sent} sent, ${sent.retried} to retry, ${sent.failed} failed`);
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
      await closeDb(db);
    },
  };
}
