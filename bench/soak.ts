// npm run soak: the benchmark's fleet under faults for ten minutes.
//   - agents report continuously: 4 environments × 3 targets, each reporting every
//     service (default 2,000) every --interval seconds, retrying until acknowledged;
//   - upstream checks go to the loopback registry through a fault-injecting proxy
//     that fails --fail-rate of requests (500, hang until the client times out, reset);
//     every --release-every seconds a tenth of the services gets a new release
//     upstream, which the agents roll out environment by environment;
//   - PostgreSQL (embedded) is restarted once, half-way;
//   - drift events go to a local webhook receiver that counts deliveries by id.
// At the end (after a drain for the outbox) it checks that every acknowledged
// report is in the history exactly once, every event was delivered under one
// delivery id, no 5xx other than the documented 503 appeared, and the server's
// RSS did not grow; it exits non-zero otherwise.
//   npm run soak -- --services 200 --minutes 2
// Flags (or SOAK_* variables): --services, --minutes, --interval, --fail-rate,
// --release-every, --drain-minutes.
import { randomUUID } from "node:crypto";
import http from "node:http";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { startEmbeddedPostgres } from "@/lib/db/embedded";
import { createRule } from "@/lib/services/notification-rules/create";
import { startDriftwatch } from "@/tests/support/server";
import { startFaultProxy } from "./fault-proxy";
import { pool, startFleet } from "./fleet";

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const raw = i >= 0 ? process.argv[i + 1] : process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? process.env[`SOAK_${name.toUpperCase().replace(/-/g, "_")}`];
  const n = raw === undefined ? fallback : Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} takes a number, got ${raw}`);
  return n;
}

const SERVICES = option("services", 2_000);
const MINUTES = option("minutes", 10);
const INTERVAL_S = option("interval", 10);
const FAIL_RATE = option("fail-rate", 0.05);
const RELEASE_EVERY_S = option("release-every", 60);
const DRAIN_MINUTES = option("drain-minutes", 8);
const ENVIRONMENTS = ["dev", "test", "staging", "production"] as const;
const TARGETS_PER_ENV = 3;
/** An environment deploys a release this long after the one before it. */
const LAG_MS = 20_000;
/** The embedded server's settings, as bench/fleet.ts starts it. */
const PG_SETTINGS = { shared_buffers: "512MB", max_wal_size: "4GB", synchronous_commit: "off" };

const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function rssMb(pid: number | undefined): number | null {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]);
    return Number.isFinite(kb) ? kb / 1024 : null;
  } catch {
    return null;
  }
}

/** Retry `fn` through a database restart (the soak's own queries). */
async function persist<T>(fn: () => Promise<T>, what: string): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt >= 60) throw err;
      log(`${what}: ${String((err as Error).message).split("\n").filter(Boolean).pop()?.slice(0, 120)}; retrying`);
      await sleep(2_000);
    }
  }
}

async function main() {
  const setupStarted = Date.now();
  log(`soak: ${SERVICES} services × ${ENVIRONMENTS.length} environments × ${TARGETS_PER_ENV} targets, ${MINUTES} min, reports every ${INTERVAL_S} s, ${FAIL_RATE * 100}% of registry requests failing`);
  const fleet = await startFleet(log);
  const dir = await mkdtemp(path.join(os.tmpdir(), "driftwatch-soak-"));
  const proxy = await startFaultProxy({ target: fleet.registry.host, failRate: 0, hangMs: 15_000 });

  // Upstream: one repository per service, 1.0.0 to start with.
  const names = Array.from({ length: SERVICES }, (_, i) => `soak/svc-${i}`);
  const digests: string[] = [];
  const pushStart = Date.now();
  await pool(names, 8, async (name, i) => {
    digests[i] = (await fleet.registry.pushImage(name, "1.0.0")).digest;
  });
  log(`pushed ${SERVICES} repositories in ${Math.round((Date.now() - pushStart) / 1000)} s`);

  // The webhook receiver: every hit, by delivery id.
  const hits: { delivery: string; event: string }[] = [];
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      try {
        hits.push({ delivery: String(req.headers["x-driftwatch-delivery"] ?? ""), event: (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id: string }).id });
      } catch {
        hits.push({ delivery: String(req.headers["x-driftwatch-delivery"] ?? ""), event: "unparseable" });
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));

  const ws = await fleet.workspace(`soak-${randomUUID().slice(0, 8)}`);
  await createRule({ ctx: ws.ctx, input: { name: "soak hook", channel: "webhook", config: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, secret: "soak-webhook-secret-0123456789" }, allow_private: true } });

  // The server under test: its own scheduler (checks, drift, outbox), checking through the proxy.
  // (The fleet's own server is started without a scheduler and stays idle.)
  const server = await startDriftwatch({
    env: {
      ...process.env, DATABASE_URL: fleet.databaseUrl, DRIFTWATCH_DATA_DIR: path.join(dir, "server"), DRIFTWATCH_EOL: "false",
      DRIFTWATCH_SERVER_REGISTRIES: proxy.host, DRIFTWATCH_INSECURE_REGISTRIES: proxy.host, DRIFTWATCH_LOG_LEVEL: "warn",
    },
  });
  log(`server under test on ${server.baseUrl} (pid ${server.child.pid}); registry behind the fault proxy ${proxy.host}; set up in ${Math.round((Date.now() - setupStarted) / 1000)} s`);
  const started = Date.now();

  // Releases: service s has versions[s] (oldest first) with their release times.
  const releases: { version: string; at: number }[][] = names.map(() => [{ version: "1.0.0", at: Date.parse("2026-11-01T00:00:00Z") }]);
  const targets = ENVIRONMENTS.flatMap((env, e) => Array.from({ length: TARGETS_PER_ENV }, (_, t) => ({ env, e, name: `k8s@soak-${env}-${t}` })));
  /** Per target and service, the versions acknowledged reports showed, in order (consecutive repeats merged). */
  const acked = new Map<string, string[][]>(targets.map((t) => [t.name, names.map(() => [])]));
  const tally = { sent: 0, acknowledged: 0, attempts: 0, status503: 0, status503InRestart: 0, other5xx: 0, other4xx: 0, networkErrors: 0, notes: [] as string[] };
  /** When PostgreSQL was down (from/to 0: not restarted). */
  const restart = { from: 0, to: 0 };

  const reportFor = (target: (typeof targets)[number], now: number) => ({
    environment: target.env,
    target: { name: target.name, kind: "kubernetes" as const },
    observed_at: new Date(now).toISOString(),
    workloads: names.map((name, s) => {
      const deployable = releases[s]!.filter((r) => r.at + target.e * LAG_MS <= now);
      const current = deployable.at(-1)!;
      return {
        service: `svc-${s}`, container: "app", main: true, image: `${proxy.host}/${name}:${current.version}`, digest: digests[s]!, platform_digest: null,
        platform: "linux/amd64", since: new Date(Math.max(current.at + target.e * LAG_MS, Date.parse("2026-11-01T00:00:00Z"))).toISOString(),
      };
    }),
  });

  const endAt = started + MINUTES * 60_000;
  const runEnd = Math.max(endAt, Date.now() + 60_000);
  const agent = async (target: (typeof targets)[number], index: number) => {
    await sleep((index * INTERVAL_S * 1000) / targets.length);
    while (Date.now() < runEnd) {
      const begun = Date.now();
      const report = reportFor(target, begun);
      const body = JSON.stringify(report);
      tally.sent++;
      for (let tries = 0; ; tries++) {
        tally.attempts++;
        let status = 0;
        let retryAfter = 0;
        let text = "";
        try {
          const res = await fetch(`${server.baseUrl}/api/v1/agent/report`, { method: "POST", headers: { authorization: `Bearer ${ws.agentKey}`, "content-type": "application/json" }, body, signal: AbortSignal.timeout(120_000) });
          status = res.status;
          retryAfter = Number(res.headers.get("retry-after") ?? 0);
          text = await res.text();
          if (status === 503 && !res.headers.get("content-type")?.startsWith("application/problem+json")) tally.notes.push(`503 without problem+json: ${text.slice(0, 100)}`);
        } catch {
          tally.networkErrors++;
          await sleep(1_000);
          continue;
        }
        if (status === 202) {
          tally.acknowledged++;
          const seqs = acked.get(target.name)!;
          report.workloads.forEach((w, s) => {
            const version = w.image.slice(w.image.lastIndexOf(":") + 1);
            if (seqs[s]!.at(-1) !== version) seqs[s]!.push(version);
          });
          break;
        }
        if (status === 503) {
          tally.status503++;
          const now = Date.now();
          if (restart.from && now >= restart.from && (restart.to === 0 || now <= restart.to + 30_000)) tally.status503InRestart++;
          await sleep(Math.max(1, Math.min(retryAfter || 2, 10)) * 1000);
          continue;
        }
        if (status >= 500) tally.other5xx++;
        else tally.other4xx++;
        tally.notes.push(`${status}: ${text.slice(0, 200)}`);
        if (tries > 20) throw new Error(`a report was refused ${tries} times: ${status} ${text.slice(0, 200)}`);
        await sleep(1_000);
      }
      await sleep(Math.max(0, INTERVAL_S * 1000 - (Date.now() - begun)));
    }
  };

  // RSS of the server under test, every 5 s.
  const rss: { at: number; mb: number }[] = [];
  const sampler = setInterval(() => {
    const mb = rssMb(server.child.pid);
    if (mb !== null) rss.push({ at: Date.now(), mb });
  }, 5_000);

  // Upstream releases: a tenth of the services at a time, made due at once (as the hourly cycle would find them).
  let releaseCount = 0;
  const releaser = async () => {
    for (let k = 1; Date.now() + RELEASE_EVERY_S * 500 < endAt; k++) {
      await sleep(k === 1 ? RELEASE_EVERY_S * 500 : RELEASE_EVERY_S * 1000);
      const slice = names.map((_, s) => s).filter((s) => s % 10 === (k - 1) % 10);
      const version = `1.${k}.0`;
      await pool(slice, 8, async (s) => {
        await fleet.registry.tagExisting(names[s]!, version, "1.0.0");
      });
      const at = Date.now();
      for (const s of slice) releases[s]!.push({ version, at });
      const keys = slice.map((s) => `${proxy.host}/${names[s]}`);
      await persist(() => fleet.db.$executeRaw`UPDATE upstream_repositories SET due_at = 'epoch' WHERE key = ANY(${keys}::text[])`, "marking released repositories due");
      releaseCount++;
      log(`released ${version} of ${slice.length} services`);
    }
  };

  const restarter = async () => {
    await sleep(Math.max(0, started + (MINUTES * 60_000) / 2 - Date.now()));
    if (process.env.DATABASE_URL) {
      log("DATABASE_URL is set: the external PostgreSQL is not restarted by the soak");
      return;
    }
    const dataDir = path.dirname((await fleet.db.$queryRaw<{ data_directory: string }[]>`SELECT current_setting('data_directory') AS data_directory`)[0]!.data_directory);
    const running = await startEmbeddedPostgres(dataDir); // adopts the fleet's server
    restart.from = Date.now();
    log("restarting PostgreSQL");
    await running.stop();
    await sleep(2_000);
    const again = await startEmbeddedPostgres(dataDir, { settings: PG_SETTINGS });
    restart.to = Date.now();
    log(`PostgreSQL back on port ${again.port} after ${((restart.to - restart.from) / 1000).toFixed(1)} s`);
  };

  proxy.set({ failRate: FAIL_RATE });
  const progress = setInterval(() => {
    log(`reports ${tally.acknowledged}/${tally.sent} acknowledged, 503 ${tally.status503}, other 5xx ${tally.other5xx}, network errors ${tally.networkErrors}; webhooks ${hits.length}; proxy ${JSON.stringify(proxy.counts)}; rss ${rss.at(-1)?.mb.toFixed(0) ?? "?"} MB`);
  }, 30_000);
  await Promise.all([...targets.map((t, i) => agent(t, i)), releaser(), restarter()]);
  clearInterval(progress);
  log(`agents stopped after ${((Date.now() - started) / 60_000).toFixed(1)} min`);
  clearInterval(sampler);

  // Drain: the outbox catches up (leases a restart cut off run out after 5 minutes).
  const wsRules = await fleet.db.notificationRule.findMany({ where: { workspaceId: ws.id }, select: { id: true } });
  const ruleIds = wsRules.map((r) => r.id);
  const drainUntil = Date.now() + DRAIN_MINUTES * 60_000;
  let outstanding = { unrouted: 0, pending: 0 };
  for (;;) {
    const unrouted = await fleet.db.event.count({ where: { workspaceId: ws.id, routedAt: null } });
    const pending = await fleet.db.delivery.count({ where: { ruleId: { in: ruleIds }, state: "pending" } });
    outstanding = { unrouted, pending };
    if ((unrouted === 0 && pending === 0) || Date.now() > drainUntil) break;
    await sleep(5_000);
  }
  log(`drained: ${JSON.stringify(outstanding)} after ${((Date.now() - started) / 60_000).toFixed(1)} min`);

  // --- verification ------------------------------------------------------------
  const rows = await fleet.db.$queryRaw<{ target: string; service: string; tag: string }[]>`
    SELECT t.name AS target, s.name AS service, r.tag FROM runs r
    JOIN targets t ON t.id = r.target_id JOIN services s ON s.id = r.service_id
    WHERE r.workspace_id = ${ws.id}::uuid ORDER BY r."from", r.id`;
  const stored = new Map<string, string[]>();
  for (const r of rows) {
    const key = `${r.target}|${r.service}`;
    const list = stored.get(key) ?? [];
    list.push(r.tag);
    stored.set(key, list);
  }
  let missing = 0;
  let duplicated = 0;
  let pairs = 0;
  for (const t of targets) {
    acked.get(t.name)!.forEach((expected, s) => {
      if (expected.length === 0) return;
      pairs++;
      const got = stored.get(`${t.name}|svc-${s}`) ?? [];
      for (const v of expected) if (!got.includes(v)) missing++;
      duplicated += Math.max(0, got.length - expected.length);
    });
  }
  const storedOk = missing === 0 && duplicated === 0;

  const events = await fleet.db.event.findMany({ where: { workspaceId: ws.id }, select: { id: true, type: true, routedAt: true } });
  const deliveries = await fleet.db.delivery.findMany({ where: { ruleId: { in: ruleIds } }, select: { id: true, eventId: true, state: true } });
  const receivedIds = new Set(hits.map((h) => h.delivery));
  const receivedEvents = new Set(hits.map((h) => h.event));
  const delivered = deliveries.filter((d) => d.state === "sent" && receivedIds.has(d.id));
  const eventsWithoutDelivery = events.filter((e) => !deliveries.some((d) => d.eventId === e.id)).length;
  const undelivered = deliveries.filter((d) => !receivedIds.has(d.id)).length;
  const unknownIds = [...receivedIds].filter((id) => !deliveries.some((d) => d.id === id)).length;
  const idsPerEvent = new Map<string, Set<string>>();
  for (const h of hits) idsPerEvent.set(h.event, (idsPerEvent.get(h.event) ?? new Set()).add(h.delivery));
  const eventsUnderSeveralIds = [...idsPerEvent.values()].filter((ids) => ids.size > 1).length;
  const rawRepeats = hits.length - receivedIds.size;
  const eventsOk = events.length > 0 && eventsWithoutDelivery === 0 && undelivered === 0 && unknownIds === 0 && eventsUnderSeveralIds === 0 && events.every((e) => receivedEvents.has(e.id));

  const unhandled = server.output().split("\n").filter((l) => /unhandled error|uncaught/i.test(l));
  const fiveXxOk = tally.other5xx === 0 && unhandled.length === 0;

  const mbs = rss.map((r) => r.mb);
  const quarter = Math.max(1, Math.floor(mbs.length / 4));
  const avg = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);
  const secondQuarter = avg(mbs.slice(quarter, 2 * quarter));
  const lastQuarter = avg(mbs.slice(mbs.length - quarter));
  const growth = (lastQuarter - secondQuarter) / secondQuarter;
  const rssOk = mbs.length >= 8 && growth <= 0.1;

  const repos = await fleet.db.upstreamRepository.findMany({ where: { host: proxy.host }, select: { checkedAt: true, lastError: true } });
  const byType = events.reduce<Record<string, number>>((m, e) => ((m[e.type] = (m[e.type] ?? 0) + 1), m), {});
  const line = (ok: boolean | null, text: string) => console.log(`${ok === null ? "info" : ok ? "PASS" : "FAIL"}  ${text}`);
  console.log(`\n== soak: ${SERVICES} services × ${ENVIRONMENTS.length} × ${TARGETS_PER_ENV}, ${MINUTES} min, ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
  line(storedOk, `reports: ${tally.sent} sent, ${tally.acknowledged} acknowledged (${tally.attempts} attempts), history matches every acknowledged report for ${pairs} target×service pairs: ${missing} versions missing, ${duplicated} rows duplicated`);
  line(eventsOk, `events: ${events.length} created ${JSON.stringify(byType)}, ${deliveries.length} deliveries, ${delivered.length} delivered; ${eventsWithoutDelivery} events without a delivery, ${undelivered} deliveries never received, ${eventsUnderSeveralIds} events under more than one delivery id; ${rawRepeats} raw repeats under the same id (at-least-once); outstanding after drain ${JSON.stringify(outstanding)}`);
  line(fiveXxOk, `5xx: ${tally.status503} × 503 problem+json with Retry-After (${tally.status503InRestart} during the PostgreSQL restart ± 30 s), ${tally.other5xx} other 5xx, ${unhandled.length} unhandled errors in the server log; ${tally.networkErrors} network errors, ${tally.other4xx} 4xx`);
  const downFor = restart.to ? `${((restart.to - restart.from) / 1000).toFixed(1)} s down at minute ${((restart.from - started) / 60_000).toFixed(1)}` : "not done";
  const injected = proxy.counts["500"] + proxy.counts.timeout + proxy.counts.reset;
  line(null, `PostgreSQL restart: ${downFor}; upstream: ${releaseCount} releases, ${repos.filter((r) => r.checkedAt).length}/${repos.length} repositories checked, ${repos.filter((r) => r.lastError).length} with a failure pending retry; fault proxy ${JSON.stringify(proxy.counts)} (${((injected / Math.max(1, injected + proxy.counts.passed)) * 100).toFixed(1)}% failed)`);
  line(rssOk, `server RSS: first ${mbs[0]?.toFixed(0)} MB, last ${mbs.at(-1)?.toFixed(0)} MB, max ${Math.max(...mbs).toFixed(0)} MB over ${mbs.length} samples; 2nd quarter avg ${secondQuarter.toFixed(0)} MB, last quarter avg ${lastQuarter.toFixed(0)} MB: ${(growth * 100).toFixed(1)}% ${growth > 0.1 ? "GROWTH > 10%" : "(no growth beyond 10%)"}`);
  for (const n of [...new Set(tally.notes)].slice(0, 10)) console.log(`  note: ${n}`);
  for (const u of unhandled.slice(0, 5)) console.log(`  server: ${u.slice(0, 300)}`);
  // What the scheduler complained about (warn level and up), the first few of each kind.
  const complaints = server.output().split("\n").filter((l) => / (warn|error) /.test(l) && !/unhandled error/.test(l));
  const kinds = new Map<string, { count: number; first: string }>();
  for (const c of complaints) {
    const key = c.replace(/^\S+ /, "").slice(0, 60);
    const k = kinds.get(key) ?? { count: 0, first: c };
    k.count++;
    kinds.set(key, k);
  }
  for (const k of [...kinds.values()].slice(0, 8)) console.log(`  server log (${k.count}×): ${k.first.slice(0, 300)}`);

  server.child.kill("SIGTERM");
  await new Promise((r) => server.child.once("exit", r));
  await new Promise<void>((resolve) => {
    receiver.closeAllConnections();
    receiver.close(() => resolve());
  });
  await proxy.stop();
  await fleet.stop();
  await rm(dir, { recursive: true, force: true });
  const ok = storedOk && eventsOk && fiveXxOk && rssOk;
  console.log(ok ? "\nsoak passed" : "\nsoak FAILED");
  process.exit(ok ? 0 : 1);
}

await main();
