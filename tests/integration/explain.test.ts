// Every query the pages, the API, agent intake and the background tick run,
// planned by PostgreSQL on a seeded fleet: no sequential scan over history,
// tags, digests, events or deliveries. The statements are not a hand-copied
// list: the real service functions run against the seeded database while
// every SQL statement the pg driver sends is recorded, and each one is then
// planned with `EXPLAIN (FORMAT JSON)` and its own parameters.
// Own embedded PostgreSQL, so nothing else's data changes the plans.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedInsightsHistory } from "@/bench/insights";
import { seedMatrixWorkspace } from "@/bench/matrix-seed";
import { loadConfig } from "@/lib/config";
import { createDb, type Db } from "@/lib/db/client";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "@/lib/db/embedded";
import { migrateDatabase } from "@/lib/db/migrate";
import type { Actor, RequestCtx } from "@/lib/services/context";
import { getServiceBadges } from "@/lib/services/badges/list-service-badges";
import { getDailyDrift } from "@/lib/services/insights/daily-drift";
import { getWeeklyArrivals } from "@/lib/services/insights/weekly-arrivals";
import { listDrifts } from "@/lib/services/drift/list-drifts";
import { evaluateAll } from "@/lib/services/drift/evaluate-all";
import { evaluateWorkspaceDrift } from "@/lib/services/drift/evaluate-workspace";
import { getMatrix } from "@/lib/services/matrix/get";
import { listHistory } from "@/lib/services/history/list";
import { getDelivery } from "@/lib/services/insights/delivery";
import { renderMetrics } from "@/lib/services/insights/metrics";
import { listPromotionsForWorkspace } from "@/lib/services/insights/promotions";
import { listUpdates } from "@/lib/services/insights/updates";
import { getMonthlyReport } from "@/lib/services/reports/get-monthly";
import { leaseDueDeliveries } from "@/lib/services/notifications/deliver";
import { listDeliveries } from "@/lib/services/notifications/list-deliveries";
import { routeEvents } from "@/lib/services/notifications/route-events";
import { recordAgentReport } from "@/lib/services/agent-reports/record";
import { pruneHistory } from "@/lib/services/retention/prune";
import { getServiceDetail } from "@/lib/services/services/get-detail";
import { leaseDueRepositories } from "@/lib/services/upstream/run-check-tick";
import { leaseDueLabels } from "@/lib/db/queries/upstream/lease-due-labels";
import { syncReleasesFor } from "@/lib/services/upstream/sync-releases";
import type { UpstreamClients } from "@/lib/services/upstream/ports";

/**
 * Services in the big workspace (4 environments × 3 targets, 90 days of history). The plans at the
 * 2,000-service target fleet (EXPLAIN_SERVICES=2000) are the same as at this size, which seeds far faster.
 */
const SERVICES = Number(process.env.EXPLAIN_SERVICES ?? 200);
const OUTBOX_EVENTS = 20_000;
const DAY = 86_400_000;
/** Tables that grow with time or fleet size: a sequential scan over one of them in a hot path is a defect. */
const LARGE = new Set(["runs", "upstream_tags", "digest_resolutions", "events", "deliveries", "drifts", "releases", "audit_log", "delivery_arrivals", "login_attempts"]);

type Captured = { text: string; values: unknown[]; label: string };

let dir: string;
let pgServer: EmbeddedPostgres;
let db: Db;
let planner: pg.Client;
let workspaceId: string;
let now: Date;
const captured: Captured[] = [];
let recording: string | null = null;
let ruleId: string;

// The pg driver Prisma's adapter uses: every statement goes through Client#query (pool queries included).
const originalQuery = pg.Client.prototype.query;
function installRecorder() {
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as { text?: string; values?: unknown[] } | string;
    if (recording !== null && this !== planner) {
      const text = typeof first === "string" ? first : first?.text;
      const values = typeof first === "string" ? ((args[1] as unknown[]) ?? []) : (first?.values ?? []);
      if (text) captured.push({ text, values, label: recording });
    }
    return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof pg.Client.prototype.query;
}

async function record(label: string, fn: () => Promise<unknown>): Promise<void> {
  recording = label;
  try {
    await fn();
  } finally {
    recording = null;
  }
}

type PlanNode = { "Node Type": string; "Relation Name"?: string; "Plan Rows": number; Plans?: PlanNode[] };

async function explain(q: Captured, noSeqScan = false): Promise<PlanNode> {
  if (noSeqScan) await planner.query("SET enable_seqscan = off");
  try {
    const res = await planner.query({ text: `EXPLAIN (FORMAT JSON) ${q.text}`, values: q.values });
    return (res.rows[0] as { "QUERY PLAN": { Plan: PlanNode }[] })["QUERY PLAN"][0]!.Plan;
  } finally {
    if (noSeqScan) await planner.query("RESET enable_seqscan");
  }
}

/** Sequential scans over tables that grow with time or fleet size (and hold more than a few pages' worth). */
function seqScans(plan: PlanNode, sizes: ReadonlyMap<string, number>): PlanNode[] {
  return walk(plan).filter((n) => n["Node Type"] === "Seq Scan" && LARGE.has(n["Relation Name"] ?? "") && (sizes.get(n["Relation Name"]!) ?? 0) >= 1_000);
}

function walk(node: PlanNode, out: PlanNode[] = []): PlanNode[] {
  out.push(node);
  for (const child of node.Plans ?? []) walk(child, out);
  return out;
}

/** Statements worth planning: reads and writes, not transaction control, locks or session settings. */
function plannable(text: string): boolean {
  const t = text.trim().toUpperCase();
  if (!/^(SELECT|WITH|UPDATE|DELETE|INSERT)/.test(t)) return false;
  if (/^SELECT\s+(PG_|1\b|NOW\(|CURRENT_|VERSION\(|PG_CURRENT_WAL)/.test(t)) return false;
  if (/^INSERT\b.*\bVALUES\b/s.test(t) && !/\bSELECT\b/.test(t)) return false;
  return true;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "driftwatch-explain-"));
  pgServer = await startEmbeddedPostgres(path.join(dir, "db"), { settings: { fsync: "off", synchronous_commit: "off", full_page_writes: "off" } });
  await migrateDatabase(pgServer.url);
  db = createDb(pgServer.url, { max: 4 });
  now = new Date();
  const [big, small] = await Promise.all([
    db.workspace.create({ data: { name: "explain-fleet" } }),
    db.workspace.create({ data: { name: "explain-other" } }),
  ]);
  workspaceId = big.id;
  const t0 = performance.now();
  const seeded = await seedInsightsHistory(db, { workspaceId, services: SERVICES, days: 90, now });
  await seedMatrixWorkspace(db, { workspaceId: small.id, services: 100, now });
  console.log(`seeded ${seeded.runs} runs in ${Math.round(performance.now() - t0)} ms`);

  // An outbox with history: 90 days of routed events, each delivered once, and resolved drift records.
  const rule = await db.notificationRule.create({
    data: { workspaceId, name: "ops", channel: "webhook", config: { url: "http://127.0.0.1:9/hook" }, events: ["drift_detected", "drift_resolved"], allowPrivate: true },
  });
  ruleId = rule.id;
  // Written in SQL, not row by row: 90 days of routed events, each delivered once, and resolved drift records.
  await db.$executeRaw`
    INSERT INTO events (id, workspace_id, type, dedupe_key, payload, created_at, routed_at)
    SELECT gen_random_uuid(), ${workspaceId}::uuid, 'drift_detected', 'seed:' || i, '{}', t, t
    FROM generate_series(1, ${OUTBOX_EVENTS}) i, LATERAL (SELECT ${now}::timestamptz - (i * interval '90 days' / ${OUTBOX_EVENTS}) AS t) x`;
  await db.$executeRaw`
    INSERT INTO deliveries (id, event_id, rule_id, state, attempts, next_attempt_at, sent_at, created_at)
    SELECT gen_random_uuid(), e.id, ${rule.id}::uuid, 'sent', 1, e.created_at, e.created_at, e.created_at FROM events e WHERE e.workspace_id = ${workspaceId}::uuid`;
  await db.$executeRaw`
    INSERT INTO drifts (id, workspace_id, service_id, environment_id, kind, state, opened_at, resolved_at, active, updated_at)
    SELECT gen_random_uuid(), s.workspace_id, s.id, e.id, 'upstream', 'resolved', now() - k * interval '9 days', now() - k * interval '9 days' + interval '1 day', NULL, now()
    FROM services s JOIN environments e ON e.workspace_id = s.workspace_id, generate_series(1, 8) k
    WHERE s.workspace_id = ${workspaceId}::uuid`;
  // Public repositories as registries list them: thousands of tags each, shared by every workspace.
  await db.$executeRawUnsafe(`
    INSERT INTO upstream_tags (repository_id, name, first_seen_at, platform_digests)
    SELECT u.id, '0.' || i || '.0-build', now() - (i % 900) * interval '1 day', '{}'
    FROM upstream_repositories u, generate_series(1, 10000) i WHERE u.scope = '' ON CONFLICT DO NOTHING`);
  // The digest cache as checks leave it: every running digest resolved to its tag.
  await db.$executeRawUnsafe(`
    INSERT INTO digest_resolutions (repository_id, digest, tag, resolved_at)
    SELECT DISTINCT u.id, r.digest, r.tag, now() FROM runs r JOIN upstream_repositories u ON u.key = r.repository
    WHERE r.digest IS NOT NULL ON CONFLICT DO NOTHING`);
  await db.$executeRawUnsafe("VACUUM ANALYZE");
  console.log(`outbox and ANALYZE done at ${Math.round(performance.now() - t0)} ms`);

  planner = new pg.Client({ connectionString: pgServer.url });
  await planner.connect();
  installRecorder();
}, SERVICES > 500 ? 3_600_000 : 600_000);

afterAll(async () => {
  pg.Client.prototype.query = originalQuery;
  await planner?.end();
  await db?.$disconnect();
  await pgServer?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("query plans on a seeded fleet", () => {
  it("plans every hot query without a sequential scan over a large table", async () => {
    const config = loadConfig({ DRIFTWATCH_EOL: "true" });
    const viewer: Actor = { kind: "token", tokenId: "explain", workspaceId, role: "member" };
    const ctx: RequestCtx = { db, now, config, actor: viewer };
    const month = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, "0")}`;
    const service = "svc-0042";

    await record("matrix", () => getMatrix({ ctx, input: {} }));
    await record("matrix page", () => getMatrix({ ctx, input: { team: "team-3", limit: 100 } }));
    await record("updates", () => listUpdates({ ctx }));
    await record("promotions", () => listPromotionsForWorkspace({ ctx }));
    await record("delivery 90d", () => getDelivery({ ctx, input: { window: "90d" } }));
    await record("drifts", () => listDrifts({ ctx, input: {} }));
    await record("history", () => listHistory({ ctx, input: {} }));
    await record("history of a service", () => listHistory({ ctx, input: { service, since: new Date(now.getTime() - 30 * DAY).toISOString() } }));
    await record("service page", () => getServiceDetail({ ctx, input: { name: service } }));
    await record("badges", () => getServiceBadges({ ctx: { ...ctx, actor: { kind: "system", workspaceId } }, input: { name: service } }));
    await record("delivery charts", async () => {
      await getWeeklyArrivals({ ctx });
      await getDailyDrift({ ctx });
    });
    await record("monthly report", () => getMonthlyReport({ ctx, input: { month } }));
    await record("metrics", () => renderMetrics({ ctx }));
    await record("drift evaluation", () => evaluateWorkspaceDrift({ ctx: { db, config, now }, input: { workspaceId } }));

    // Agent intake: a target's whole state, with one image changed and one workload gone.
    const target = await db.target.findFirstOrThrow({ where: { workspaceId, name: "k8s@dev-1" }, select: { id: true, name: true } });
    const open = await db.run.findMany({ where: { targetId: target.id, to: null }, select: { image: true, serviceId: true, from: true, digest: true }, take: 50 });
    const serviceNames = new Map((await db.service.findMany({ where: { id: { in: open.map((r) => r.serviceId) } }, select: { id: true, name: true } })).map((s) => [s.id, s.name] as const));
    const workloads = open.map((r, i) => ({
      service: serviceNames.get(r.serviceId)!, container: "app", main: true, image: i === 0 ? r.image.replace(/:[^:]+$/, ":99.0.0") : r.image,
      digest: i === 0 ? null : r.digest, platform_digest: null, platform: null,
      since: (i === 0 ? new Date(now.getTime() - 60_000) : r.from).toISOString(),
    })).slice(0, -1);
    // What the agent read in the private registry of the changed image: tags and a resolved digest.
    const repository = open[0]!.image.replace(/:[^:]+$/, "");
    const tags = await db.upstreamTag.findMany({ where: { repository: { key: repository } }, select: { name: true } });
    const registryResults = [{ repository, tags: [...tags.map((t) => t.name), "99.0.0"], digests: [], resolved: [{ digest: `sha256:${"a".repeat(64)}`, tag: "99.0.0" }], error: null }];
    const key = await db.agentKey.create({ data: { workspaceId, name: "explain-agent", prefix: "dwa_explain", hash: "explain" } });
    const agent: Actor = { kind: "agent", agentKeyId: key.id, workspaceId, name: key.name };
    await record("agent report", () =>
      recordAgentReport({
        ctx: { ...ctx, actor: agent },
        input: { environment: "dev", target: { name: target.name, kind: "kubernetes" }, observed_at: new Date(now.getTime() + 1000).toISOString(), workloads, registry_results: registryResults } as never,
        evaluateDrift: false,
      }),
    );
    await record("scheduler: lease checks", () => leaseDueRepositories(db, now, 200));
    await record("scheduler: lease labels", () => leaseDueLabels(db, now, 25));
    await record("scheduler: drift tick", () => evaluateAll({ ctx: { db, config, now } }));
    // A check's release sources: the services that follow the repository, from its open rows only. No forge is
    // asked here (a forge found would fail, which the sync records and goes on from).
    const noForge = { forges: { listReleases: () => Promise.reject(new Error("no forge in the plan test")) } } as unknown as UpstreamClients;
    await record("check: release sources", () => syncReleasesFor({ db, config, clients: noForge, now }, repository, null));
    await record("scheduler: route events", () => routeEvents({ ctx: { db, now } }));
    await record("scheduler: lease deliveries", () => leaseDueDeliveries({ db, config }, now));
    // Retention as the hourly tick runs it in a steady state: the cutoff a day into the seeded history, so that it
    // finds a day's rows to fold and remove.
    await record("retention", () => pruneHistory({ ctx: { db, config: { ...config, retentionDays: 90 }, now: new Date(now.getTime() + DAY) } }));
    await record("deliveries of a rule", () => listDeliveries({ ctx: { ...ctx, actor: { kind: "system", workspaceId } }, input: { id: ruleId } }));

    const sizes = new Map(
      (await planner.query<{ relname: string; n: string }>(`SELECT relname, reltuples::bigint::text AS n FROM pg_class WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace`)).rows
        .map((r) => [r.relname, Number(r.n)] as const),
    );
    const seen = new Set<string>();
    const findings: string[] = [];
    const wholeTable: string[] = [];
    let planned = 0;
    for (const q of captured) {
      const key = `${q.text}\n${JSON.stringify(q.values, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v))}`;
      if (seen.has(key) || !plannable(q.text)) continue;
      seen.add(key);
      planned++;
      const sql = q.text.replace(/\s+/g, " ").slice(0, 300);
      const scans = seqScans(await explain(q), sizes);
      if (scans.length === 0) continue;
      // Planned again with sequential scans made prohibitively expensive: one that stays has no index to use at all.
      const stays = new Set(seqScans(await explain(q, true), sizes).map((n) => n["Relation Name"]));
      for (const node of scans) {
        const table = node["Relation Name"]!;
        const kept = node["Plan Rows"] / Math.max(1, sizes.get(table) ?? 1);
        if (stays.has(table)) findings.push(`[${q.label}] Seq Scan on ${table}, and no index can serve it: ${sql}`);
        else if (kept < 0.5) findings.push(`[${q.label}] Seq Scan on ${table} keeping ~${Math.round(kept * 100)}% of it: ${sql}`);
        else wholeTable.push(`[${q.label}] reads ~${Math.round(kept * 100)}% of ${table}: ${sql.slice(0, 120)}`);
      }
    }
    // Reads that need (nearly) the whole table, such as a delivery window over all retained history: a sequential
    // scan is the right plan there, and retention bounds their size. Listed so a new one is seen.
    console.log(`planned ${planned} statements; whole-table reads:\n${[...new Set(wholeTable)].join("\n")}`);
    expect(planned).toBeGreaterThan(40);
    expect(findings, findings.join("\n\n")).toEqual([]);
  }, 600_000);

  it("checks new history rows' services, environments and targets by key, not by reading those tables", async () => {
    // The check is a statement trigger's (runs_parents_exist): its statements are planned inside the
    // trigger, so auto_explain, loaded into this session only, sends their plans here as LOG notices.
    const plans: PlanNode[] = [];
    const onNotice = (n: { message?: string }) => {
      const json = /plan:\s*(\{[\s\S]*\})\s*$/.exec(n.message ?? "")?.[1];
      if (json) plans.push((JSON.parse(json) as { Plan: PlanNode }).Plan);
    };
    planner.on("notice", onNotice);
    try {
      await planner.query("BEGIN");
      // Thousands of services and targets elsewhere (rolled back): the planner sees the tables' pages as they
      // are, and reading them whole would cost every report's insert time that grows with the fleet.
      await planner.query(`
        WITH w AS (INSERT INTO workspaces (id, name, created_at) VALUES (gen_random_uuid(), 'explain-many', now()) RETURNING id),
        e AS (INSERT INTO environments (id, workspace_id, name, position, production, created_at) SELECT gen_random_uuid(), w.id, 'dev', 10, false, now() FROM w RETURNING id, workspace_id),
        s AS (INSERT INTO services (id, workspace_id, name, check_due_at) SELECT gen_random_uuid(), w.id, 'many-' || g, now() FROM w, generate_series(1, 5000) g)
        INSERT INTO targets (id, workspace_id, environment_id, name, kind, config, created_at)
        SELECT gen_random_uuid(), e.workspace_id, e.id, 'many-' || g, 'docker', '{}', now() FROM e, generate_series(1, 5000) g`);
      await planner.query("LOAD 'auto_explain'");
      await planner.query("SET LOCAL auto_explain.log_min_duration = 0; SET LOCAL auto_explain.log_nested_statements = on; SET LOCAL auto_explain.log_format = 'json'; SET LOCAL client_min_messages = log");
      // A report's worth of rows, copied from what runs now.
      const copied = await planner.query({
        text: `INSERT INTO runs (workspace_id, service_id, environment_id, target_id, container, is_main, image, repository, tag, version, digest, platform_digest, platform, declared, "from")
               SELECT workspace_id, service_id, environment_id, target_id, container, is_main, image, repository, tag, version, digest, platform_digest, platform, declared, now()
               FROM runs WHERE workspace_id = $1::uuid AND "to" IS NULL LIMIT 50`,
        values: [workspaceId],
      });
      expect(copied.rowCount).toBe(50);
    } finally {
      await planner.query("ROLLBACK").catch(() => undefined);
      planner.off("notice", onNotice);
    }
    const parents = new Set(["services", "environments", "targets"]);
    const checks = plans.filter((plan) => walk(plan).some((n) => parents.has(n["Relation Name"] ?? "")));
    expect(checks.length, "the trigger's statements were not seen").toBeGreaterThan(0);
    // Environments are a handful a workspace: reading them whole is the cheaper plan.
    const scans = checks.flatMap((plan) => walk(plan)).filter((n) => n["Node Type"] === "Seq Scan" && (n["Relation Name"] === "services" || n["Relation Name"] === "targets"));
    expect(scans.map((n) => n["Relation Name"])).toEqual([]);
  });
});
