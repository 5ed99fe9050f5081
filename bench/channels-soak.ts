// npm run soak:channels: drift events to all eleven channel kinds at once,
// through the real outbox (route, lease, send, retry with back-off) on an
// embedded PostgreSQL, against tests/support/channel-vendors.ts (loopback
// vendors shaped like each API, an SMTP server, the real MQTT broker). A share
// of requests fails the way each vendor fails. It checks that every event
// reached every kind exactly once and prints the outbox's figures; it exits
// non-zero otherwise.
//   npm run soak:channels -- --events 1000 --fail-rate 0.05 --workers 2
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createDb } from "@/lib/db/client";
import { startEmbeddedPostgres } from "@/lib/db/embedded";
import { migrateDatabase } from "@/lib/db/migrate";
import { loadConfig } from "@/lib/config";
import { buildDriftEventPayload } from "@/lib/domain/notifications";
import type { RequestCtx } from "@/lib/services/context";
import { deliverDue } from "@/lib/services/notifications/deliver";
import { routeEvents } from "@/lib/services/notifications/route-events";
import { createRule } from "@/lib/services/notification-rules/create";
import { setupWorkspace } from "@/lib/services/workspaces/setup";
import { KINDS, startVendors } from "@/tests/support/channel-vendors";

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const raw = i >= 0 ? process.argv[i + 1] : process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
  const n = raw === undefined ? fallback : Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} takes a number, got ${raw}`);
  return n;
}

const KIND_CYCLE = ["upstream", "env", "eol", "inconsistent"] as const;
const EVENTS = option("events", 1000);
const FAIL_RATE = option("fail-rate", 0.05);
const WORKERS = option("workers", 2);
const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function main() {
  const dir = await mkdtemp(path.join(os.tmpdir(), "driftwatch-channels-soak-"));
  const pg = await startEmbeddedPostgres(path.join(dir, "db"), { settings: { fsync: "off", synchronous_commit: "off", full_page_writes: "off" } });
  const db = createDb(pg.url, { max: 4 + WORKERS * 2 });
  const vendors = await startVendors(() => Math.random() < FAIL_RATE);
  let failed = false;
  try {
    await migrateDatabase(pg.url);
    const { workspaceId } = await setupWorkspace({ ctx: { db }, input: { workspace: "soak", email: "soak@example.test", password: `pw-${randomUUID()}` } });
    const config = { ...loadConfig({}), smtpUrl: vendors.smtpUrl };
    const ctx: RequestCtx = { db, config, get now() { return new Date(); }, actor: { kind: "system", workspaceId } };
    for (const kind of KINDS) await createRule({ ctx, input: { name: kind, channel: kind, config: vendors.configs[kind], allow_private: true } });

    const at = new Date();
    const rows = Array.from({ length: EVENTS }, (_, i) => {
      const id = randomUUID();
      const payload = buildDriftEventPayload({
        event: "drift_detected", eventId: id, occurredAt: at, workspace: "soak", baseUrl: "http://localhost:3000",
        drift: { id: randomUUID(), service: `svc-${i}`, team: null, environment: "production", kind: KIND_CYCLE[i % KIND_CYCLE.length]!, state: "announced", running: "1.0.0", expected: "1.1.0", openedAt: at, announcedAt: at, resolvedAt: null },
      });
      return { id, workspaceId, type: "drift_detected", dedupeKey: `drift_detected:${payload.drift_id}`, payload, createdAt: at };
    });
    await db.event.createMany({ data: rows });
    log(`soak: ${EVENTS} drift events × ${KINDS.length} kinds = ${EVENTS * KINDS.length} deliveries, ${FAIL_RATE * 100}% of vendor requests failing, ${WORKERS} workers`);

    const started = performance.now();
    const totals = { leased: 0, sent: 0, retried: 0, failed: 0 };
    let rounds = 0;
    for (;;) {
      rounds++;
      await routeEvents({ ctx: { db, now: new Date() } });
      const results = await Promise.all(Array.from({ length: WORKERS }, () => deliverDue({ ctx: { db, config, now: new Date() }, input: { workspaceId, budgetMs: 600_000 } })));
      for (const r of results) for (const k of Object.keys(totals) as (keyof typeof totals)[]) totals[k] += r[k];
      const pending = await db.delivery.count({ where: { state: "pending" } });
      log(`round ${rounds}: ${results.reduce((n, r) => n + r.sent, 0)} sent, ${results.reduce((n, r) => n + r.retried, 0)} to retry; ${pending} pending`);
      if (pending === 0 || rounds > 60) break;
      // Back-off is fast-forwarded: the schedule itself is the domain's, tested on its own.
      await db.$executeRaw`UPDATE deliveries SET next_attempt_at = now() - interval '1 second' WHERE state = 'pending'`;
    }
    const seconds = (performance.now() - started) / 1000;
    for (let i = 0; i < 100 && vendors.accepted.mqtt.size < EVENTS; i++) await new Promise((r) => setTimeout(r, 50));

    const byState = await db.$queryRaw<{ channel: string; state: string; n: bigint; attempts: bigint }[]>`
      SELECT r.channel, d.state, count(*) AS n, sum(d.attempts) AS attempts FROM deliveries d JOIN notification_rules r ON r.id = d.rule_id GROUP BY 1, 2 ORDER BY 1, 2`;
    const latency = (await db.$queryRaw<{ ms: number }[]>`SELECT extract(epoch FROM (sent_at - created_at)) * 1000 AS ms FROM deliveries WHERE state = 'sent'`).map((r) => Number(r.ms)).sort((a, b) => a - b);

    console.log("\nkind        deliveries  sent  attempts  vendor requests  arrived  unique  duplicates  lost");
    for (const kind of KINDS) {
      const rowsFor = byState.filter((r) => r.channel === kind);
      const n = rowsFor.reduce((s, r) => s + Number(r.n), 0);
      const sent = Number(rowsFor.find((r) => r.state === "sent")?.n ?? 0);
      const attempts = rowsFor.reduce((s, r) => s + Number(r.attempts), 0);
      const got = vendors.accepted[kind];
      const arrived = [...got.values()].reduce((s, v) => s + v, 0);
      const duplicates = arrived - got.size;
      const lost = EVENTS - got.size;
      if (n !== EVENTS || sent !== EVENTS || duplicates !== 0 || lost !== 0) failed = true;
      console.log(`${kind.padEnd(11)} ${String(n).padStart(10)} ${String(sent).padStart(5)} ${String(attempts).padStart(9)} ${String(vendors.requests[kind]).padStart(16)} ${String(arrived).padStart(8)} ${String(got.size).padStart(7)} ${String(duplicates).padStart(11)} ${String(lost).padStart(5)}`);
    }
    const total = EVENTS * KINDS.length;
    console.log(`\noutbox: ${totals.leased} leases, ${totals.sent} sent, ${totals.retried} retries, ${totals.failed} failed, in ${rounds} rounds and ${seconds.toFixed(1)} s (${(total / seconds).toFixed(0)} deliveries/s)`);
    console.log(`time from event to sent (retries fast-forwarded): p50 ${(pct(latency, 50) / 1000).toFixed(1)} s, p95 ${(pct(latency, 95) / 1000).toFixed(1)} s, max ${(pct(latency, 100) / 1000).toFixed(1)} s`);
    console.log(failed ? "\nFAILED: some kind did not get every event exactly once" : `\nOK: ${EVENTS} events × ${KINDS.length} kinds, each delivered exactly once`);
  } finally {
    await vendors.close();
    await db.$disconnect();
    await pg.stop();
    await rm(dir, { recursive: true, force: true });
  }
  process.exit(failed ? 1 : 0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
