// Retention on 600 days of history: exactly the closed rows past the cutoff
// go (never an open row, never the last row of a service on a target), old
// resolved drift and delivered events go, and the delivery figures for old
// periods (monthly report, weekly chart, a 365-day window) are the same before
// and after. Own embedded PostgreSQL.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedInsightsHistory } from "@/bench/insights";
import { loadConfig, type Config } from "@/lib/config";
import { createDb, type Db } from "@/lib/db/client";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "@/lib/db/embedded";
import { migrateDatabase } from "@/lib/db/migrate";
import type { RequestCtx } from "@/lib/services/context";
import { getWeeklyArrivals } from "@/lib/services/insights/weekly-arrivals";
import { getDelivery } from "@/lib/services/insights/delivery";
import { getMonthlyReport } from "@/lib/services/reports/get-monthly";
import { pruneHistory, retentionCutoffs, retentionTick } from "@/lib/services/retention/prune";

const DAY = 86_400_000;
const NOW = new Date("2026-11-20T12:00:00.000Z");

let dir: string;
let pg: EmbeddedPostgres;
let db: Db;
let workspaceId: string;
let config: Config;

const monthOf = (d: Date) => `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
const ago = (days: number) => new Date(NOW.getTime() - days * DAY);

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "driftwatch-retention-"));
  pg = await startEmbeddedPostgres(path.join(dir, "db"), { settings: { fsync: "off", synchronous_commit: "off", full_page_writes: "off" } });
  await migrateDatabase(pg.url);
  db = createDb(pg.url, { max: 4 });
  config = loadConfig({ DRIFTWATCH_EOL: "false" });
  const ws = await db.workspace.create({ data: { name: "retention" } });
  workspaceId = ws.id;
  await seedInsightsHistory(db, { workspaceId, services: 12, days: 600, now: NOW });

  // A service that left its target 510 days ago: its last row stays, the one before goes.
  const [dev, target] = await Promise.all([
    db.environment.findFirstOrThrow({ where: { workspaceId, name: "dev" } }),
    db.target.findFirstOrThrow({ where: { workspaceId, name: "k8s@dev-1" } }),
  ]);
  const gone = await db.service.create({ data: { workspaceId, name: "gone" } });
  const ancient = await db.service.create({ data: { workspaceId, name: "ancient" } });
  const row = { workspaceId, environmentId: dev.id, targetId: target.id, container: "app", repository: "ghcr.io/acme/x" };
  await db.run.createMany({
    data: [
      { ...row, serviceId: gone.id, image: "ghcr.io/acme/x:1.0.0", tag: "1.0.0", version: "1.0.0", from: ago(560), to: ago(530) },
      { ...row, serviceId: gone.id, image: "ghcr.io/acme/x:1.1.0", tag: "1.1.0", version: "1.1.0", from: ago(530), to: ago(510) },
      // Still running after 700 days.
      { ...row, serviceId: ancient.id, image: "ghcr.io/acme/x:0.9.0", tag: "0.9.0", version: "0.9.0", from: ago(700), to: null },
    ],
  });

  // Drift: resolved long ago (goes), resolved lately (stays), live for 600 days (stays).
  const svc = await db.service.findFirstOrThrow({ where: { workspaceId, name: "svc-0001" } });
  await db.drift.createMany({
    data: [
      { workspaceId, serviceId: svc.id, environmentId: dev.id, kind: "upstream", state: "resolved", active: null, openedAt: ago(520), resolvedAt: ago(500) },
      { workspaceId, serviceId: svc.id, environmentId: dev.id, kind: "upstream", state: "resolved", active: null, openedAt: ago(20), resolvedAt: ago(10) },
      { workspaceId, serviceId: svc.id, environmentId: dev.id, kind: "eol", state: "announced", active: true, openedAt: ago(600) },
    ],
  });

  // The outbox: delivered 40 days ago (goes), still pending after 40 days, never routed, delivered yesterday (all stay).
  const rule = await db.notificationRule.create({ data: { workspaceId, name: "ops", channel: "webhook", config: { url: "http://127.0.0.1:9/" }, events: ["drift_detected"] } });
  const event = (key: string, at: Date, routed: boolean) => ({ id: crypto.randomUUID(), workspaceId, type: "drift_detected", dedupeKey: key, payload: {}, createdAt: at, routedAt: routed ? at : null });
  const events = [event("old-sent", ago(40), true), event("old-pending", ago(40), true), event("old-unrouted", ago(40), false), event("new-sent", ago(1), true)];
  await db.event.createMany({ data: events });
  await db.delivery.createMany({
    data: [
      { eventId: events[0]!.id, ruleId: rule.id, state: "sent", sentAt: ago(40), createdAt: ago(40) },
      { eventId: events[1]!.id, ruleId: rule.id, state: "pending", createdAt: ago(40) },
      { eventId: events[3]!.id, ruleId: rule.id, state: "sent", sentAt: ago(1), createdAt: ago(1) },
    ],
  });
  await db.loginAttempt.createMany({ data: [{ key: "a", at: ago(40) }, { key: "b", at: ago(1) }] });
}, 600_000);

afterAll(async () => {
  await db?.$disconnect();
  await pg?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function figures(ctx: RequestCtx) {
  const months = [monthOf(ago(480)), monthOf(ago(400)), monthOf(ago(200)), monthOf(ago(40))];
  const reports = [];
  for (const month of months) {
    const r = await getMonthlyReport({ ctx, input: { month } });
    reports.push({ month, delivery: r.delivery, arrivals: r.arrivals });
  }
  return { reports, weekly: await getWeeklyArrivals({ ctx, input: { weeks: 12 } }), year: await getDelivery({ ctx, input: { window: "365d" } }), quarter: await getDelivery({ ctx, input: { window: "90d" } }) };
}

describe("retention", () => {
  it("removes exactly the old closed history, drift and delivered events, and keeps the delivery figures", async () => {
    const ctx: RequestCtx = { db, config, now: NOW, actor: { kind: "system", workspaceId } };
    const cutoff = retentionCutoffs(config, NOW).history!;
    expect(cutoff.toISOString()).toBe(ago(455).toISOString());

    // Independently of the service: closed before the cutoff, and a later row of the same service exists on that target.
    const expected = await db.$queryRaw<{ id: bigint }[]>`
      SELECT id FROM (
        SELECT id, "to", row_number() OVER (PARTITION BY service_id, environment_id, target_id ORDER BY "from" DESC, id DESC) AS rn FROM runs
      ) x WHERE "to" < ${cutoff} AND rn > 1`;
    const before = await db.run.findMany({ select: { id: true } });
    const driftsBefore = await db.drift.count();
    expect(expected.length).toBeGreaterThan(1_000);
    const beforeFigures = await figures(ctx);
    expect(beforeFigures.reports[0]!.delivery.environments.some((e) => e.deploys > 0)).toBe(true);

    const result = await pruneHistory({ ctx: { db, config, now: NOW }, input: { batch: 700 } });
    expect(result).toMatchObject({ runs: expected.length, drifts: 1, events: 1, loginAttempts: 1, busy: false });
    expect(result.arrivals).toBeGreaterThan(0);

    const gone = new Set(expected.map((r) => r.id));
    const after = await db.run.findMany({ select: { id: true } });
    expect(after.map((r) => r.id).sort()).toEqual(before.map((r) => r.id).filter((id) => !gone.has(id)).sort());
    // Nothing open went; the service that left keeps its last row; nothing left is older than the cutoff but last rows.
    const serviceIds = async (name: string) => ({ in: (await db.service.findMany({ where: { name }, select: { id: true } })).map((s) => s.id) });
    expect(await db.run.count({ where: { serviceId: await serviceIds("ancient") } })).toBe(1);
    expect((await db.run.findMany({ where: { serviceId: await serviceIds("gone") }, select: { tag: true } })).map((r) => r.tag)).toEqual(["1.1.0"]);
    expect(await db.drift.count()).toBe(driftsBefore - 1);
    expect(await db.drift.count({ where: { resolvedAt: { lt: cutoff } } })).toBe(0);
    expect(await db.drift.count({ where: { openedAt: { lt: cutoff }, active: true } })).toBe(1);
    expect((await db.event.findMany({ select: { dedupeKey: true }, orderBy: { dedupeKey: "asc" } })).map((e) => e.dedupeKey)).toEqual(["new-sent", "old-pending", "old-unrouted"]);
    expect(await db.delivery.count()).toBe(2);
    expect(await db.loginAttempt.count()).toBe(1);

    // The same figures from what is left plus the folded deploys.
    expect(await figures(ctx)).toEqual(beforeFigures);

    // Again: nothing more to do.
    expect(await pruneHistory({ ctx: { db, config, now: NOW } })).toMatchObject({ runs: 0, drifts: 0, events: 0 });
    // Without the folded deploys, the oldest month would have lost its figures.
    await db.deliveryArrival.deleteMany({ where: { workspaceId } });
    const bare = await getMonthlyReport({ ctx, input: { month: beforeFigures.reports[0]!.month } });
    expect(bare.delivery).not.toEqual(beforeFigures.reports[0]!.delivery);
  }, 600_000);

  it("runs from the tick at most hourly, and 0 days keeps history forever", async () => {
    const first = await retentionTick({ ctx: { db, config, now: new Date(NOW.getTime() + DAY) } });
    expect(first).not.toBeNull();
    expect(await retentionTick({ ctx: { db, config, now: new Date(NOW.getTime() + DAY + 60_000) } })).toBeNull();
    const forever = await pruneHistory({ ctx: { db, config: { ...config, retentionDays: 0 }, now: new Date(NOW.getTime() + 400 * DAY) } });
    expect(forever.runs).toBe(0);
    expect(() => loadConfig({ DRIFTWATCH_RETENTION_DAYS: "30" })).toThrow(/DRIFTWATCH_RETENTION_DAYS/);
  }, 120_000);
});
