// The insights wired end to end: the updates list from drift records and
// acknowledgements, promotions and delivery from a history built through agent
// reports, /metrics agreeing with /api/v1/delivery, and the CLI printing the
// API bodies. Domain rules are tested in lib/domain/insights; this checks wiring.
import { spawnSync } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { updatesChecklistText } from "@/lib/services/insights/updates";
import { api, baseUrl, makeWorkspace, testDb, type TestWorkspace } from "../support/api";
import { settled } from "../support/settle";

const ROOT = path.resolve(import.meta.dirname, "../..");
const MIN = 60_000;
const DAY = 86_400_000;
// A whole minute a little in the past, so every report is in the past too.
const NOW = Math.floor(Date.now() / MIN) * MIN - 5 * MIN;
const ago = (days: number, minutes = 0) => new Date(NOW - days * DAY - minutes * MIN);
const digestOf = (image: string) => `sha256:${createHash("sha256").update(image).digest("hex")}`;
const REGISTRY = "registry.example.test/acme";

// ─── Building history through agent reports ───────────────────────────────

type Step = { at: Date; service: string; tag: string; application?: string };
type RegistryResult = { repository: string; tags: string[]; digests: never[]; resolved: never[]; error: null };

const tagsOf = (service: string, tags: string[]): RegistryResult => ({ repository: `${REGISTRY}/${service}`, tags, digests: [], resolved: [], error: null });

/** Sends one report per moment something changed on the target: each the target's whole state then. */
async function playTarget(ws: TestWorkspace, environment: string, target: string, steps: Step[], registryResults: RegistryResult[] = []) {
  const running = new Map<string, { image: string; since: Date; application?: string }>();
  const moments = [...new Set(steps.map((s) => s.at.getTime()))].sort((a, b) => a - b);
  for (const [i, at] of moments.entries()) {
    for (const s of steps.filter((x) => x.at.getTime() === at)) {
      running.set(s.service, { image: `${REGISTRY}/${s.service}:${s.tag}`, since: s.at, ...(s.application ? { application: s.application } : {}) });
    }
    const workloads = [...running].map(([service, w]) => ({
      service, container: service, main: true, image: w.image, digest: digestOf(w.image), platform_digest: null, platform: "linux/amd64",
      since: w.since.toISOString(), ...(w.application ? { application: w.application } : {}),
    }));
    const res = await api(ws.agentKey).post("/api/v1/agent/report", {
      environment, target: { name: target, kind: "docker" }, observed_at: new Date(at).toISOString(), workloads,
      registry_results: i === 0 ? registryResults : [],
    });
    expect(res.status).toBe(202);
    expect(res.body.ignored).toBeNull();
  }
}

async function createPipeline(ws: TestWorkspace) {
  for (const [name, position, production] of [["dev", 1, false], ["staging", 2, false], ["production", 3, true]] as const) {
    expect((await api(ws.member).post("/api/v1/environments", { name, position, production })).status).toBe(201);
  }
}

/** A GitHub repository of releases, as the release sync leaves it (shared table: a name of its own). */
async function seedForgeReleases(releases: { tag: string; publishedAt: Date }[]): Promise<string> {
  const name = `acme-${randomUUID().slice(0, 8)}/web`;
  const repo = await testDb().forgeRepository.create({ data: { kind: "github", name, fetchedAt: new Date() } });
  await testDb().release.createMany({
    data: releases.map((r) => ({ forgeRepositoryId: repo.id, tag: r.tag, name: r.tag, publishedAt: r.publishedAt, url: `https://github.com/${name}/releases/tag/${r.tag}` })),
  });
  return name;
}

/**
 * Holds the scheduler's drift evaluation off a workspace (its advisory lock),
 * so seeded drift records stay as seeded while they are read.
 */
async function holdDriftEvaluation(workspaceId: string): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString: inject("databaseUrl") });
  await client.connect();
  await client.query("SELECT pg_advisory_lock(hashtextextended($1, 0))", [`drift:${workspaceId}`]);
  return async () => {
    await client.query("SELECT pg_advisory_unlock_all()");
    await client.end();
  };
}

// ─── Updates ───────────────────────────────────────────────────────────────

describe("GET /api/v1/updates", () => {
  let ws: TestWorkspace;
  let release: () => Promise<void>;
  let forge: string;
  let putOff: { id: string };

  beforeAll(async () => {
    ws = await makeWorkspace("updates");
    await createPipeline(ws);
    const registry = [tagsOf("web", ["1.1.0", "1.2.0", "1.3.0", "1.3.1"]), tagsOf("api", ["3.0.0", "3.0.1", "3.0.2"]), tagsOf("db", ["14.9", "15.4", "16.1"])];
    await playTarget(ws, "dev", "u-dev", [
      { at: ago(4), service: "api", tag: "3.0.1" },
      { at: ago(3), service: "web", tag: "1.3.1", application: "storefront" },
    ], registry);
    await playTarget(ws, "staging", "u-stg", [{ at: ago(20), service: "api", tag: "3.0.0" }, { at: ago(12), service: "web", tag: "1.2.0" }]);
    await playTarget(ws, "production", "u-prod-1", [
      { at: ago(60), service: "db", tag: "14.9" }, { at: ago(30), service: "api", tag: "3.0.0" }, { at: ago(30), service: "web", tag: "1.1.0" },
    ]);
    await playTarget(ws, "production", "u-prod-2", [{ at: ago(10), service: "web", tag: "1.2.0" }]);

    forge = await seedForgeReleases([{ tag: "v1.3.1", publishedAt: ago(5) }]);
    for (const [name, body] of [
      ["web", { team: "shop", policy: { github: forge } }],
      ["api", { team: "platform", policy: { changelog: "https://changelog.example.test/api#{version}" } }],
      ["db", { team: "data" }],
    ] as const) {
      expect((await api(ws.member).patch(`/api/v1/services/${name}`, body)).status).toBe(200);
    }
    const ack = await api(ws.member).post("/api/v1/acks", { service: "api", kind: "release", until_version: "3.0.2", environment: "dev" });
    expect(ack.status).toBe(201);
    putOff = ack.body;

    await settled(ws);
    release = await holdDriftEvaluation(ws.id);
    const db = testDb();
    const byName = (rows: { id: string; name: string }[]) => new Map(rows.map((r) => [r.name, r.id] as const));
    const services = byName(await db.service.findMany({ where: { workspaceId: ws.id }, select: { id: true, name: true } }));
    const envs = byName(await db.environment.findMany({ where: { workspaceId: ws.id }, select: { id: true, name: true } }));
    const drift = (service: string, environment: string, kind: "eol" | "upstream" | "env" | "inconsistent", openedAt: Date, running: string | null, expected: string | null, resolved = false) => ({
      workspaceId: ws.id, serviceId: services.get(service)!, environmentId: envs.get(environment)!, kind, openedAt, running, expected,
      state: resolved ? ("resolved" as const) : ("open" as const), active: resolved ? null : true, resolvedAt: resolved ? ago(2) : null,
    });
    await db.drift.deleteMany({ where: { workspaceId: ws.id } });
    await db.drift.createMany({
      data: [
        drift("db", "production", "eol", ago(1), "14.9", null), // end of life disabled in tests: no date, so "soon"
        drift("web", "production", "upstream", ago(10), "1.1.0", "1.3.1"), // 1.1.0 → 1.3.1: minor
        drift("web", "production", "env", ago(3), "1.1.0", "1.2.0"), // same line: minor wins, open since 10d
        drift("web", "staging", "upstream", ago(12), "1.2.0", "1.3.1"),
        drift("api", "production", "upstream", ago(30), "3.0.0", "3.0.2"), // patch
        drift("api", "staging", "env", ago(5), "3.0.0", "3.0.1"),
        drift("api", "dev", "upstream", ago(1), "3.0.1", "3.0.2"), // put off until 3.0.2 runs in dev
        drift("db", "production", "inconsistent", ago(9), "14.9", null), // not an update kind
        drift("web", "dev", "upstream", ago(20), "1.2.0", "1.3.1", true), // resolved: no line
      ],
    });
    // An expired acknowledgement quiets nothing.
    await db.ack.create({ data: { workspaceId: ws.id, serviceId: services.get("web")!, environmentId: envs.get("production")!, kind: "drift", expiresAt: ago(1), createdAt: ago(8) } });
  });

  afterAll(async () => {
    await release?.();
  });

  type Line = Record<string, unknown>;
  const line = (over: Line): Line => ({ application: null, production: false, ack: null, release_notes_url: null, promote: null, upstream_state: "ok", reasons: [over.reason], waiting: [], ...over });
  const webNotes = () => `https://github.com/${forge}/releases/tag/v1.3.1`;
  const apiNotes = "https://changelog.example.test/api#3.0.2";
  const expectedItems = () => [
    // eol_soon first; db has no release notes anywhere
    line({ service: "db", team: "data", environment: "production", production: true, running: "14.9", target_version: "16.1", reason: "eol_soon", open_since: ago(1).toISOString(),
      targets: [{ name: "u-prod-1", version: "14.9", moves: true }] }),
    // minor: production first; the oldest version running in production (1.1.0 on u-prod-1, 1.2.0 on u-prod-2)
    line({ service: "web", application: "storefront", team: "shop", environment: "production", production: true, running: "1.1.0", target_version: "1.3.1", release_notes_url: webNotes(), reason: "minor", open_since: ago(10).toISOString(),
      reasons: ["minor", "behind_previous_env"], promote: { from_environment: "staging", version: "1.2.0" },
      // u-prod-2 already runs staging's 1.2.0: only u-prod-1 moves
      targets: [{ name: "u-prod-1", version: "1.1.0", moves: true }, { name: "u-prod-2", version: "1.2.0", moves: false }] }),
    line({ service: "web", application: "storefront", team: "shop", environment: "staging", running: "1.2.0", target_version: "1.3.1", release_notes_url: webNotes(), reason: "minor", open_since: ago(12).toISOString(),
      promote: { from_environment: "dev", version: "1.3.1" }, targets: [{ name: "u-stg", version: "1.2.0", moves: true }] }),
    // behind the previous environment, then patch; api's notes come from its changelog template
    line({ service: "api", team: "platform", environment: "staging", running: "3.0.0", target_version: "3.0.2", release_notes_url: apiNotes, reason: "behind_previous_env", open_since: ago(5).toISOString(),
      promote: { from_environment: "dev", version: "3.0.1" }, targets: [{ name: "u-stg", version: "3.0.0", moves: true }] }),
    line({ service: "api", team: "platform", environment: "production", production: true, running: "3.0.0", target_version: "3.0.2", release_notes_url: apiNotes, reason: "patch", open_since: ago(30).toISOString(), targets: [{ name: "u-prod-1", version: "3.0.0", moves: true }] }),
  ];
  const expectedAcknowledged = () => [
    line({
      service: "api", team: "platform", environment: "dev", running: "3.0.1", target_version: "3.0.2", release_notes_url: apiNotes, reason: "patch", open_since: ago(1).toISOString(), targets: [{ name: "u-dev", version: "3.0.1", moves: true }],
      ack: { id: putOff.id, kind: "release", until_version: "3.0.2", skip_version: null, expires_at: null },
    }),
  ];

  it("lists one line per service and environment, most urgent first, put-off lines apart", async () => {
    const res = await api(ws.viewer).get("/api/v1/updates");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: expectedItems(), acknowledged: expectedAcknowledged() });
  });

  it.each([
    ["team=platform", (l: Line) => l.team === "platform"],
    ["environment=production", (l: Line) => l.environment === "production"],
    ["application=storefront", (l: Line) => l.application === "storefront"],
  ])("filters by %s", async (query, keep) => {
    const res = await api(ws.viewer).get(`/api/v1/updates?${query}`);
    expect(res.body).toEqual({ items: expectedItems().filter(keep), acknowledged: expectedAcknowledged().filter(keep) });
  });

  it("copies the lines that are not put off as a markdown checklist, production told to take staging's version first", async () => {
    const text = await updatesChecklistText({ ctx: ws.ctx, input: { team: "shop" } });
    expect(text).toBe([
      "- [ ] web (production): 1.1.0 → 1.2.0 (from staging), then 1.3.1 · Minor release, Behind the previous environment · move u-prod-1 (runs 1.1.0); u-prod-2 runs 1.2.0 already",
      "- [ ] web (staging): 1.2.0 → 1.3.1 (from dev) · Minor release",
    ].join("\n"));
  });

  it("answers 401 without a token", async () => {
    const res = await api(null).get("/api/v1/updates");
    expect(res.status).toBe(401);
    expect(res.contentType).toMatch(/^application\/problem\+json/);
  });
});

// ─── Promotions, delivery, metrics, CLI ───────────────────────────────────

// Pipeline dev → staging → production, two targets in each. Arrival = first time a version runs on any target there.
const WEB = (at: Date, tag: string): Step => ({ at, service: "web", tag });
const API = (at: Date, tag: string): Step => ({ at, service: "api", tag });
const HISTORY: { environment: string; target: string; steps: Step[] }[] = [
  // web in dev: 1.0.0 (40d), 1.1.0 (20d), 1.2.0 (10d), 1.3.0 (6d), 1.3.1 (1d); an unresolved `latest` on dev-2 is no version.
  // api in dev: 1.9.0 (33d), 2.0.0 (12d), 2.1.0 (3d).
  { environment: "dev", target: "dev-1", steps: [WEB(ago(40), "1.0.0"), WEB(ago(20), "1.1.0"), WEB(ago(10), "1.2.0"), WEB(ago(6), "1.3.0"), WEB(ago(1), "1.3.1"), API(ago(33), "1.9.0"), API(ago(12), "2.0.0"), API(ago(3), "2.1.0")] },
  { environment: "dev", target: "dev-2", steps: [WEB(ago(15), "latest")] },
  // web in staging, two targets: 1.1.0 reaches stg-1 18d ago and stg-2 17d ago (arrival 18d); 1.2.0 arrives 9d ago,
  // rolls back to 1.1.0 8d ago and is re-deployed 7d ago (one arrival). 1.3.0 skips staging.
  // api in staging: 1.9.0 (29d), 2.0.0 (11d), hotfix 2.0.1 (6d), 2.1.0 (2d 12h 1m).
  { environment: "staging", target: "stg-1", steps: [WEB(ago(38), "1.0.0"), WEB(ago(18), "1.1.0"), WEB(ago(9), "1.2.0"), WEB(ago(8), "1.1.0"), WEB(ago(7), "1.2.0"), API(ago(29), "1.9.0"), API(ago(11), "2.0.0"), API(ago(6), "2.0.1"), API(ago(2, 721), "2.1.0")] },
  { environment: "staging", target: "stg-2", steps: [WEB(ago(17), "1.1.0")] },
  // web in production: 1.1.0 14d (prod-1) / 13d (prod-2); 1.2.0 5d / 4d; a rollback to 1.1.0 on prod-1 3d ago,
  // then 1.3.0 straight from dev 2d ago. api: 1.9.0 (26d), 2.0.0 (8d), 2.0.1 (7d, before staging: a hotfix).
  { environment: "production", target: "prod-1", steps: [WEB(ago(35), "1.0.0"), WEB(ago(14), "1.1.0"), WEB(ago(5), "1.2.0"), WEB(ago(3), "1.1.0"), WEB(ago(2), "1.3.0"), API(ago(26), "1.9.0"), API(ago(8), "2.0.0"), API(ago(7), "2.0.1")] },
  { environment: "production", target: "prod-2", steps: [WEB(ago(13), "1.1.0"), WEB(ago(4), "1.2.0")] },
];

const EXPECTED_DELIVERY_30D = {
  window: "30d",
  environments: [
    // dev: web 1.1.0, 1.2.0, 1.3.0, 1.3.1 + api 2.0.0, 2.1.0 = 6 (web 1.0.0 at 40d and api 1.9.0 at 33d are before the window)
    { environment: "dev", deploys: 6 },
    // staging: web 1.1.0, 1.2.0 (rollback and re-deploy not counted) + api 1.9.0, 2.0.0, 2.0.1, 2.1.0 = 6
    { environment: "staging", deploys: 6 },
    // production: web 1.1.0, 1.2.0, 1.3.0 (the rollback is not) + api 1.9.0, 2.0.0, 2.0.1 = 6
    { environment: "production", deploys: 6 },
  ],
  lead_times: [
    // dev → staging, by staging arrival: web 1.1.0 20d − 18d = 172800; web 1.2.0 10d − 9d = 86400;
    // api 1.9.0 33d − 29d = 345600 (the dev arrival before the window still pairs); api 2.0.0 12d − 11d = 86400;
    // api 2.1.0 3d − 2d 12h 1m = 43140. web 1.3.0 skipped staging, api 2.0.1 never ran in dev.
    // sorted 43140, 86400, 86400, 172800, 345600 → median 86400
    { from_environment: "dev", to_environment: "staging", median_seconds: 86_400, samples: 5 },
    // staging → production: web 1.1.0 18d − 14d = 345600; web 1.2.0 9d − 5d = 345600; api 1.9.0 29d − 26d = 259200;
    // api 2.0.0 11d − 8d = 259200; web 1.3.0 skipped staging, api 2.0.1 reached production first.
    // even count → (259200 + 345600) / 2 = 302400
    { from_environment: "staging", to_environment: "production", median_seconds: 302_400, samples: 4 },
  ],
};

function cli(args: string[], token: string) {
  const r = spawnSync(process.execPath, [path.join(ROOT, "bin/driftwatch.mjs"), ...args, "--url", baseUrl(), "--token", token], {
    cwd: ROOT, encoding: "utf8", timeout: 60_000, env: { ...process.env, DRIFTWATCH_URL: "", DRIFTWATCH_TOKEN: "" },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Prometheus text → `name{labels}` → value. */
function parseMetrics(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    const m = /^([a-z_]+(?:\{[^}]*\})?) (\S+)$/.exec(line);
    if (m) out.set(m[1]!, Number(m[2]));
  }
  return out;
}

describe("promotions, delivery and metrics from history", () => {
  let ws: TestWorkspace;
  let forge: string;

  beforeAll(async () => {
    ws = await makeWorkspace("delivery");
    await createPipeline(ws);
    const registry = [tagsOf("web", ["1.0.0", "1.1.0", "1.2.0", "1.3.0", "1.3.1", "1.4.0", "latest"]), tagsOf("api", ["1.9.0", "2.0.0", "2.0.1", "2.1.0", "2.2.0"])];
    for (const [i, t] of HISTORY.entries()) await playTarget(ws, t.environment, t.target, t.steps, i === 0 ? registry : []);
    // Notes: web's from GitHub releases (1.3.0 has none), api's from its changelog template.
    forge = await seedForgeReleases([{ tag: "v1.2.0", publishedAt: ago(12) }, { tag: "v1.3.1", publishedAt: ago(2) }]);
    await api(ws.member).patch("/api/v1/services/web", { policy: { github: forge } });
    await api(ws.member).patch("/api/v1/services/api", { policy: { changelog: "https://changelog.example.test/api#{version}" } });
  });

  it("lists waiting versions, longest waiting first, with the releases a promotion brings", async () => {
    const res = await api(ws.viewer).get("/api/v1/promotions");
    expect(res.status).toBe(200);
    const seconds = (since: Date) => Math.floor((Date.now() - since.getTime()) / 1000);
    expect(res.body.items).toEqual([
      {
        // staging's newest 2.1.0 (2d 12h 1m) waits for production's 2.0.1
        service: "api", from_environment: "staging", to_environment: "production", from_version: "2.0.1", to_version: "2.1.0",
        waiting_since: ago(2, 721).toISOString(), waiting_seconds: expect.any(Number),
        releases: [{ version: "2.1.0", published_at: null, release_notes_url: "https://changelog.example.test/api#2.1.0" }],
      },
      {
        // dev's 1.3.1 (1d) waits for staging's oldest, 1.1.0 on stg-2; staging → production waits for nothing (1.2.0 is the oldest there too)
        service: "web", from_environment: "dev", to_environment: "staging", from_version: "1.1.0", to_version: "1.3.1",
        waiting_since: ago(1).toISOString(), waiting_seconds: expect.any(Number),
        releases: [
          { version: "1.2.0", published_at: ago(12).toISOString(), release_notes_url: `https://github.com/${forge}/releases/tag/v1.2.0` },
          { version: "1.3.0", published_at: null, release_notes_url: null },
          { version: "1.3.1", published_at: ago(2).toISOString(), release_notes_url: `https://github.com/${forge}/releases/tag/v1.3.1` },
        ],
      },
    ]);
    expect(Math.abs(res.body.items[0].waiting_seconds - seconds(ago(2, 721)))).toBeLessThanOrEqual(30);
    expect(Math.abs(res.body.items[1].waiting_seconds - seconds(ago(1)))).toBeLessThanOrEqual(30);
  });

  it("counts arrivals and lead times over the window", async () => {
    const res = await api(ws.viewer).get("/api/v1/delivery?window=30d");
    expect(res.status).toBe(200);
    const { from, to, ...rest } = res.body;
    expect(rest).toEqual(EXPECTED_DELIVERY_30D);
    expect(Date.parse(to) - Date.parse(from)).toBe(30 * DAY);
    expect(Math.abs(Date.parse(to) - Date.now())).toBeLessThan(30_000);
    // The default window is 30 days.
    const byDefault = await api(ws.viewer).get("/api/v1/delivery");
    expect({ ...byDefault.body, from: undefined, to: undefined }).toEqual({ ...EXPECTED_DELIVERY_30D, from: undefined, to: undefined });
  });

  it.each(["400d", "abc", "0d"])("answers 422 for window=%s", async (window) => {
    const res = await api(ws.viewer).get(`/api/v1/delivery?window=${window}`);
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(["/query/window"]);
  });

  it("reports the same numbers in /metrics as /api/v1/delivery?window=30d", async () => {
    const delivery = (await api(ws.viewer).get("/api/v1/delivery?window=30d")).body as typeof EXPECTED_DELIVERY_30D;
    const res = await api(ws.viewer).get("/metrics");
    expect(res.status).toBe(200);
    expect(res.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    const metrics = parseMetrics(res.text);
    for (const e of delivery.environments) expect(metrics.get(`driftwatch_deploys{environment="${e.environment}"}`)).toBe(e.deploys);
    for (const l of delivery.lead_times) {
      const labels = `{from_environment="${l.from_environment}",to_environment="${l.to_environment}"}`;
      expect(metrics.get(`driftwatch_lead_time_seconds${labels}`)).toBe(l.median_seconds);
      expect(metrics.get(`driftwatch_lead_time_samples${labels}`)).toBe(l.samples);
    }
    expect([...metrics.keys()].filter((k) => k.startsWith("driftwatch_deploys{")).length).toBe(3);
    // The rest: open drift by kind, checks by registry host, report age per target, outbox depth.
    for (const kind of ["env", "upstream", "inconsistent", "declared", "eol"]) expect(metrics.has(`driftwatch_open_drifts{kind="${kind}"}`)).toBe(true);
    expect(metrics.get('driftwatch_upstream_repositories{host="registry.example.test"}')).toBe(2);
    expect(metrics.get('driftwatch_upstream_repositories_failing{host="registry.example.test"}')).toBe(0);
    expect(metrics.get('driftwatch_agent_report_age_seconds{target="prod-2"}')).toBeGreaterThanOrEqual(0);
    expect(metrics.get("driftwatch_outbox_pending")).toBe(0);
  });

  it("keeps metrics per workspace", async () => {
    const other = await makeWorkspace("metrics-other");
    const metrics = parseMetrics((await api(other.viewer).get("/metrics")).text);
    expect([...metrics.keys()].filter((k) => k.startsWith("driftwatch_deploys{"))).toEqual([]);
    expect([...metrics.keys()].some((k) => k.includes('target="prod-2"'))).toBe(false);
  });

  it("answers 401 on /metrics without a token", async () => {
    const res = await api(null).get("/metrics");
    expect(res.status).toBe(401);
    expect(res.contentType).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 401, code: "unauthenticated" });
  });

  it("prints the API body with driftwatch promotions --json", async () => {
    const r = cli(["promotions", "--json"], ws.viewer);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const body = (await api(ws.viewer).get("/api/v1/promotions")).body;
    // waiting_seconds moves with the clock between the two reads
    const still = (b: { items: { waiting_seconds: number }[] }) => ({ items: b.items.map((p) => ({ ...p, waiting_seconds: Math.floor(p.waiting_seconds / 60) })) });
    expect(still(JSON.parse(r.stdout))).toEqual(still(body));
  });

  it("prints the API body with driftwatch delivery --json, and a table without", async () => {
    const r = cli(["delivery", "--window", "30d", "--json"], ws.viewer);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    const body = (await api(ws.viewer).get("/api/v1/delivery?window=30d")).body;
    // from and to are "now" at each read
    expect({ ...out, from: undefined, to: undefined }).toEqual({ ...body, from: undefined, to: undefined });
    expect(Math.abs(Date.parse(out.to) - Date.parse(body.to))).toBeLessThan(30_000);

    const table = cli(["delivery"], ws.viewer);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^ENVIRONMENT +DEPLOYS$/m);
    expect(table.stdout).toMatch(/^production +6$/m);
    expect(table.stdout).toMatch(/^dev +staging +1 day +5$/m);
  });

  it("answers a bad window on the command line with one line and a non-zero exit", () => {
    const r = cli(["delivery", "--window", "2y"], ws.viewer);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/window/);
  });
});
