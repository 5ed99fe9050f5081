// Drift, driven as a user would: agents report what runs, the server evaluates
// drift after each report, and GET /api/v1/drifts shows the records. Also the
// acknowledgements API and `driftwatch ack`. Every response is checked against
// the OpenAPI document. Times are relative to now: the server's own one-minute
// tick evaluates these workspaces too, with the real clock.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { evaluateWorkspaceDrift } from "@/lib/services/drift/evaluate-workspace";
import { api, baseUrl, makeWorkspace, testDb, type TestWorkspace } from "../support/api";
import { settled } from "../support/settle";

const ROOT = path.resolve(import.meta.dirname, "../..");
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const D = (n: number) => `sha256:${n.toString(16).padStart(64, "0")}`;
const REGISTRY = "registry.drift.test/acme";

type Drift = { id: string; service: string; environment: string; target: string | null; kind: string; state: string; running: string | null; expected: string | null; opened_at: string; announced_at: string | null; resolved_at: string | null; silenced: boolean };

function workload(service: string, version: string, since: string, digest = 1) {
  return { service, container: service, main: true, image: `${REGISTRY}/${service}:${version}`, digest: D(digest), platform_digest: null, platform: "linux/amd64", since };
}

async function report(ws: TestWorkspace, environment: string, target: string, workloads: object[], kind = "docker") {
  const res = await api(ws.agentKey).post("/api/v1/agent/report", { environment, target: { name: target, kind }, observed_at: new Date().toISOString(), workloads });
  expect(res.status).toBe(202);
  await settled(ws);
  return res.body;
}

async function pipeline(ws: TestWorkspace, envs: [string, number][]) {
  for (const [name, position] of envs) {
    const res = await api(ws.member).post("/api/v1/environments", { name, position, production: name === "production" });
    expect(res.status).toBe(201);
  }
}

async function drifts(ws: TestWorkspace, query = ""): Promise<Drift[]> {
  const res = await api(ws.viewer).get(`/api/v1/drifts${query}`);
  expect(res.status).toBe(200);
  return res.body.items;
}

async function eventsOf(ws: TestWorkspace) {
  return testDb().event.findMany({ where: { workspaceId: ws.id }, orderBy: { createdAt: "asc" } });
}

describe("env drift across two environments", () => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await makeWorkspace("drift-env");
    await pipeline(ws, [["staging", 10], ["production", 20]]);
  });

  it("opens at the date history gives, and is announced at once when older than 7 days", async () => {
    await report(ws, "staging", "docker@stg", [workload("web", "1.27.3", ago(10 * DAY), 2)]);
    await report(ws, "production", "docker@prod", [workload("web", "1.26.0", ago(20 * DAY), 1)]);
    const items = await drifts(ws, "?kind=env");
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ service: "web", environment: "production", target: null, kind: "env", state: "announced", running: "1.26.0", expected: "1.27.3", resolved_at: null, silenced: false });
    // When staging started to run the newer version, not when Driftwatch noticed.
    expect(Math.abs(Date.parse(items[0]!.opened_at) - (Date.now() - 10 * DAY))).toBeLessThan(HOUR);
    const events = await eventsOf(ws);
    expect(events.map((e) => [e.type, e.dedupeKey])).toEqual([["drift_detected", `drift_detected:${items[0]!.id}`]]);
    expect(events[0]!.payload).toMatchObject({ event: "drift_detected", service: "web", environment: "production", kind: "env", state: "announced", running: "1.26.0", expected: "1.27.3" });
  });

  it("emits nothing new when evaluated again", async () => {
    const before = await eventsOf(ws);
    const result = await evaluateWorkspaceDrift({ ctx: { db: testDb(), config: { ...ws.ctx.config, eolEnabled: false }, now: new Date() }, input: { workspaceId: ws.id } });
    expect(result).toMatchObject({ opened: 0, announced: 0, resolved: 0, events: 0 });
    expect(await eventsOf(ws)).toEqual(before);
  });

  it("resolves when production catches up, and emits drift_resolved", async () => {
    await report(ws, "production", "docker@prod", [workload("web", "1.27.3", ago(HOUR), 2)]);
    expect(await drifts(ws, "?kind=env")).toEqual([]);
    const resolved = await drifts(ws, "?kind=env&state=resolved");
    expect(resolved).toHaveLength(1);
    expect(resolved[0]).toMatchObject({ state: "resolved", resolved_at: expect.any(String), announced_at: expect.any(String) });
    const events = await eventsOf(ws);
    expect(events.map((e) => e.dedupeKey)).toEqual([`drift_detected:${resolved[0]!.id}`, `drift_resolved:${resolved[0]!.id}`]);
    // The event carries the record's own end, to the millisecond.
    expect(Date.parse((events[1]!.payload as { resolved_at: string }).resolved_at)).toBe(Date.parse(resolved[0]!.resolved_at!));
  });
});

describe("env drift dated from closed history", () => {
  it("opens when the earlier environment first ran a newer version, even if that row has ended", async () => {
    const ws = await makeWorkspace("drift-env-history");
    await pipeline(ws, [["staging", 10], ["production", 20]]);
    await report(ws, "production", "docker@prod", [workload("web", "1.26.0", ago(30 * DAY), 1)]);
    // Staging moved past production 20 days ago (1.27.0), then on to 1.27.3 twelve days ago.
    await report(ws, "staging", "docker@stg", [workload("web", "1.27.0", ago(20 * DAY), 2)]);
    await testDb().drift.deleteMany({ where: { workspaceId: ws.id } });
    await report(ws, "staging", "docker@stg", [workload("web", "1.27.3", ago(12 * DAY), 3)]);
    const [drift] = await drifts(ws, "?kind=env");
    expect(drift).toMatchObject({ running: "1.26.0", expected: "1.27.3", state: "announced" });
    expect(Math.abs(Date.parse(drift!.opened_at) - (Date.now() - 20 * DAY))).toBeLessThan(HOUR);
  });
});

describe("inconsistent targets", () => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await makeWorkspace("drift-inconsistent");
  });

  it("names the one target that differs, and stays open (not announced) for its first 15 minutes", async () => {
    await report(ws, "production", "docker@a", [workload("api", "1.4.0", ago(2 * DAY), 4)]);
    await report(ws, "production", "docker@b", [workload("api", "1.4.0", ago(2 * DAY), 4)]);
    await report(ws, "production", "docker@c", [workload("api", "1.3.0", ago(5 * 60_000), 3)]);
    const items = await drifts(ws);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ service: "api", environment: "production", kind: "inconsistent", state: "open", target: "docker@c", running: "1.3.0", expected: "1.4.0", announced_at: null });
  });

  it("resolves quietly when it ends before its announcement: no event at all", async () => {
    await report(ws, "production", "docker@c", [workload("api", "1.4.0", ago(60_000), 4)]);
    expect(await drifts(ws)).toEqual([]);
    expect(await drifts(ws, "?state=resolved")).toEqual([expect.objectContaining({ kind: "inconsistent", state: "resolved", announced_at: null })]);
    expect(await eventsOf(ws)).toEqual([]);
  });
});

describe("declared drift (Compose files in Git)", () => {
  it("appears when what runs differs from what a compose_git report declares", async () => {
    const ws = await makeWorkspace("drift-declared");
    await report(ws, "staging", "git@deploy-repo", [{ ...workload("shop", "2.1.0", ago(3 * HOUR)), digest: null }], "compose_git");
    await report(ws, "staging", "docker@shop-1", [workload("shop", "2.0.0", ago(2 * HOUR), 5)]);
    const items = await drifts(ws, "?kind=declared");
    expect(items).toEqual([
      expect.objectContaining({ service: "shop", environment: "staging", kind: "declared", state: "announced", target: "docker@shop-1", running: "2.0.0", expected: "2.1.0", silenced: false }),
    ]);
    expect(Math.abs(Date.parse(items[0]!.opened_at) - (Date.now() - 2 * HOUR))).toBeLessThan(60_000);
  });
});

describe("GET /api/v1/drifts filters", () => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await makeWorkspace("drift-filter");
    await pipeline(ws, [["staging", 10], ["production", 20]]);
    await report(ws, "staging", "docker@stg-1", [workload("web", "2.0.0", ago(9 * DAY), 7), workload("api", "3.1.0", ago(DAY), 8)]);
    await report(ws, "staging", "docker@stg-2", [workload("web", "2.0.0", ago(9 * DAY), 7), workload("api", "3.0.0", ago(DAY), 9)]);
    await report(ws, "production", "docker@prod-1", [workload("web", "1.9.0", ago(30 * DAY), 6)]);
  });

  it("lists live drift by default and filters by kind, service and environment", async () => {
    const all = await drifts(ws);
    expect(all.map((d) => `${d.service}/${d.environment}/${d.kind}`).sort()).toEqual(["api/staging/inconsistent", "web/production/env"]);
    expect((await drifts(ws, "?kind=inconsistent")).map((d) => d.service)).toEqual(["api"]);
    expect((await drifts(ws, "?service=web")).map((d) => d.kind)).toEqual(["env"]);
    expect((await drifts(ws, "?environment=staging")).map((d) => d.kind)).toEqual(["inconsistent"]);
    expect(await drifts(ws, "?environment=production&kind=inconsistent")).toEqual([]);
    expect(await drifts(ws, "?service=nope")).toEqual([]);
  });

  it("filters by state", async () => {
    expect((await drifts(ws, "?state=announced")).map((d) => d.kind).sort()).toEqual(["env", "inconsistent"]);
    expect(await drifts(ws, "?state=open")).toEqual([]);
    await report(ws, "staging", "docker@stg-2", [workload("web", "2.0.0", ago(9 * DAY), 7), workload("api", "3.1.0", ago(60_000), 8)]);
    expect((await drifts(ws, "?state=resolved")).map((d) => d.kind)).toEqual(["inconsistent"]);
    expect((await drifts(ws)).map((d) => d.kind)).toEqual(["env"]);
  });

  it("answers 422 for an unknown state or kind, and 401 without a token", async () => {
    expect((await api(ws.viewer).get("/api/v1/drifts?state=gone")).status).toBe(422);
    expect((await api(ws.viewer).get("/api/v1/drifts?kind=weather")).status).toBe(422);
    expect((await api(null).get("/api/v1/drifts")).status).toBe(401);
  });

  it("keeps workspaces apart", async () => {
    const other = await makeWorkspace("drift-filter-other");
    expect(await drifts(other)).toEqual([]);
  });
});

describe("upstream drift, acknowledgements and silencing", () => {
  let ws: TestWorkspace;
  const evaluate = () => evaluateWorkspaceDrift({ ctx: { db: testDb(), config: { ...ws.ctx.config, eolEnabled: false }, now: new Date() }, input: { workspaceId: ws.id } });

  beforeAll(async () => {
    ws = await makeWorkspace("drift-upstream");
    await pipeline(ws, [["staging", 10], ["production", 20]]);
    await report(ws, "production", "docker@prod", [workload("web", "1.0.0", ago(40 * DAY), 10)]);
    // What a check of the repository would have stored (the check itself is the upstream checks' business).
    const db = testDb();
    const repo = await db.upstreamRepository.findFirstOrThrow({ where: { key: `${REGISTRY}/web`, ownerWorkspaceId: ws.id } });
    await db.upstreamTag.createMany({
      data: ["1.0.0", "1.1.0", "1.2.0", "latest"].map((name, i) => ({ repositoryId: repo.id, name, platformDigests: [], firstSeenAt: new Date(Date.now() - (60 - i * 10) * DAY) })),
    });
    await db.upstreamRepository.update({ where: { id: repo.id }, data: { checkedAt: new Date() } });
    await evaluate();
  });

  it("opens upstream drift against the newest release, announced at once", async () => {
    expect(await drifts(ws, "?kind=upstream")).toEqual([
      expect.objectContaining({ service: "web", environment: "production", kind: "upstream", state: "announced", running: "1.0.0", expected: "1.2.0", silenced: false }),
    ]);
  });

  it("creates an acknowledgement (201) that marks the drift silenced", async () => {
    const res = await api(ws.member).post("/api/v1/acks", { service: "web", kind: "release", until_version: "1.2.0" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: expect.any(String), service: "web", kind: "release", until_version: "1.2.0", environment: null, expires_at: null, active: true });
    expect(Date.parse(res.body.created_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(await drifts(ws, "?kind=upstream")).toEqual([expect.objectContaining({ silenced: true })]);
    const listed = await api(ws.viewer).get("/api/v1/acks");
    expect(listed.body.items).toEqual([expect.objectContaining({ id: res.body.id, active: true })]);
  });

  it("is lifted once a version at or above until_version runs, and the drift resolves", async () => {
    await report(ws, "production", "docker@prod", [workload("web", "1.2.0", ago(60_000), 12)]);
    expect(await drifts(ws, "?kind=upstream")).toEqual([]);
    const acks = (await api(ws.viewer).get("/api/v1/acks")).body.items;
    expect(acks).toEqual([expect.objectContaining({ active: false, lifted_at: expect.any(String) })]);
    expect((await api(ws.viewer).get("/api/v1/acks?active=true")).body.items).toEqual([]);
  });

  it("records silenced events without routing them", async () => {
    const ack = await api(ws.member).post("/api/v1/acks", { service: "web", kind: "drift", environment: "production", duration: "72h" });
    expect(ack.status).toBe(201);
    expect(Date.parse(ack.body.expires_at) - Date.parse(ack.body.created_at)).toBe(72 * HOUR);
    await report(ws, "production", "docker@prod", [workload("web", "1.0.0", ago(30_000), 10)]);
    expect(await drifts(ws, "?kind=upstream")).toEqual([expect.objectContaining({ state: "announced", silenced: true })]);
    const silenced = (await eventsOf(ws)).filter((e) => (e.payload as { silenced?: boolean }).silenced === true);
    expect(silenced).toHaveLength(1);
    expect(silenced[0]).toMatchObject({ type: "drift_detected", routedAt: expect.any(Date) });
  });

  it("stops marking a drift silenced the moment its acknowledgement expires, with nothing written in between", async () => {
    const db = testDb();
    const live = await db.ack.findMany({ where: { workspaceId: ws.id, liftedAt: null, expiresAt: { not: null } } });
    expect(live).toHaveLength(1);
    const expiresAt = new Date(Date.now() + 1_500);
    await db.ack.update({ where: { id: live[0]!.id }, data: { expiresAt } });
    expect(await drifts(ws, "?kind=upstream")).toEqual([expect.objectContaining({ silenced: true })]);
    await new Promise((r) => setTimeout(r, expiresAt.getTime() - Date.now() + 50));
    expect(await drifts(ws, "?kind=upstream")).toEqual([expect.objectContaining({ state: "announced", silenced: false })]);
  });
});

describe("an acknowledgement typed as a plain version", () => {
  let ws: TestWorkspace;
  const evaluate = () => evaluateWorkspaceDrift({ ctx: { db: testDb(), config: { ...ws.ctx.config, eolEnabled: false }, now: new Date() }, input: { workspaceId: ws.id } });

  beforeAll(async () => {
    ws = await makeWorkspace("drift-ack-flavour");
    await pipeline(ws, [["production", 20]]);
    await report(ws, "production", "docker@prod", [workload("web", "3.1.1-alpine", ago(40 * DAY), 10)]);
    const db = testDb();
    const repo = await db.upstreamRepository.findFirstOrThrow({ where: { key: `${REGISTRY}/web`, ownerWorkspaceId: ws.id } });
    await db.upstreamTag.createMany({
      data: ["3.1.1", "3.1.1-alpine", "3.2.0", "3.2.0-alpine"].map((name, i) => ({ repositoryId: repo.id, name, platformDigests: [], firstSeenAt: new Date(Date.now() - (30 - i) * DAY) })),
    });
    await db.upstreamRepository.update({ where: { id: repo.id }, data: { checkedAt: new Date() } });
    await evaluate();
  });

  it.each([
    ["until_version", { until_version: "3.3.0" }],
    ["skip_version", { skip_version: "3.2.0" }],
  ])("%s covers every flavour of the running line", async (_field, version) => {
    expect(await drifts(ws, "?kind=upstream")).toEqual([expect.objectContaining({ running: "3.1.1-alpine", expected: "3.2.0-alpine", silenced: false })]);
    const ack = await api(ws.member).post("/api/v1/acks", { service: "web", kind: "release", ...version });
    expect(ack.status).toBe(201);
    expect(await drifts(ws, "?kind=upstream")).toEqual([expect.objectContaining({ expected: "3.2.0-alpine", silenced: true })]);
    expect((await api(ws.member).delete(`/api/v1/acks/${ack.body.id}`)).status).toBe(204);
  });
});

describe("POST/GET/DELETE /api/v1/acks", () => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await makeWorkspace("acks");
    await pipeline(ws, [["production", 20]]);
    await report(ws, "production", "docker@prod", [workload("web", "1.0.0", ago(DAY))]);
  });

  it("answers 404 for an unknown service or environment", async () => {
    const noService = await api(ws.member).post("/api/v1/acks", { service: "nope", kind: "drift", duration: "1h" });
    expect(noService.status).toBe(404);
    expect(noService.contentType).toMatch(/application\/problem\+json/);
    expect((await api(ws.member).post("/api/v1/acks", { service: "web", kind: "drift", duration: "1h", environment: "mars" })).status).toBe(404);
  });

  it.each([
    [{ service: "web", kind: "drift" }, "/duration"],
    [{ service: "web", kind: "drift", duration: "1h", until_version: "1.1.0" }, "/until_version"],
    [{ service: "web", kind: "release" }, "/until_version"],
    [{ service: "web", kind: "release", until_version: "latest" }, "/until_version"],
    [{ service: "web", kind: "release", duration: "three days" }, "/duration"],
    [{ service: "web", kind: "snooze", duration: "1h" }, "/kind"],
    [{ service: "web", kind: "drift", duration: "1h", note: "x" }, ""],
  ])("answers 422 for %j", async (body, pointer) => {
    const res = await api(ws.member).post("/api/v1/acks", body);
    expect(res.status).toBe(422);
    if (pointer) expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
  });

  it("refuses viewers (403) and deletes for members (204, then 404)", async () => {
    expect((await api(ws.viewer).post("/api/v1/acks", { service: "web", kind: "drift", duration: "1h" })).status).toBe(403);
    const created = await api(ws.member).post("/api/v1/acks", { service: "web", kind: "release", until_version: "2.0", duration: "7d", environment: "production" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ kind: "release", until_version: "2.0", environment: "production", active: true });
    expect((await api(ws.viewer).delete(`/api/v1/acks/${created.body.id}`)).status).toBe(403);
    expect((await api(ws.member).delete(`/api/v1/acks/${created.body.id}`)).status).toBe(204);
    expect((await api(ws.member).delete(`/api/v1/acks/${created.body.id}`)).status).toBe(404);
    expect((await api(ws.viewer).get("/api/v1/acks")).body.items.map((a: { id: string }) => a.id)).not.toContain(created.body.id);
  });

  it("answers 404 for another workspace's acknowledgement", async () => {
    const created = await api(ws.member).post("/api/v1/acks", { service: "web", kind: "drift", duration: "1h" });
    const other = await makeWorkspace("acks-other");
    expect((await api(other.member).delete(`/api/v1/acks/${created.body.id}`)).status).toBe(404);
  });

  it("driftwatch ack --json creates one through the API", () => {
    const r = spawnSync(
      process.execPath,
      [path.join(ROOT, "bin/driftwatch.mjs"), "ack", "--service", "web", "--kind", "drift", "--env", "production", "--for", "72h", "--json", "--url", baseUrl(), "--token", ws.member],
      { cwd: ROOT, encoding: "utf8", timeout: 60_000 },
    );
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ service: "web", kind: "drift", environment: "production", until_version: null, active: true });
    expect(Date.parse(out.expires_at) - Date.parse(out.created_at)).toBe(72 * HOUR);

    const bad = spawnSync(process.execPath, [path.join(ROOT, "bin/driftwatch.mjs"), "ack", "--service", "web", "--kind", "drift", "--url", baseUrl(), "--token", ws.member], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
    expect(bad.status).toBe(1);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    expect(bad.stderr).toMatch(/422.*duration/);
  });
});

describe("eol drift", () => {
  it("opens when the running cycle's support ends within 60 days (evaluated here with end-of-life data on)", async () => {
    const ws = await makeWorkspace("drift-eol");
    await report(ws, "production", "docker@prod", [workload("db", "16.4", ago(DAY), 20)]);
    const db = testDb();
    const product = `bench-eol-${ws.id.slice(0, 8)}`;
    const soon = new Date(Date.now() + 20 * DAY).toISOString().slice(0, 10);
    await db.eolProduct.create({ data: { name: product, fetchedAt: new Date(), data: { releases: [{ name: "16", releaseDate: null, isEol: false, eolFrom: soon, isMaintained: true, isLts: false, latest: null }] } } });
    await db.service.updateMany({ where: { workspaceId: ws.id, name: "db" }, data: { policy: { eol: product } } });
    // The shared test server runs with DRIFTWATCH_EOL=false, so assert on what this evaluation wrote.
    const result = await evaluateWorkspaceDrift({ ctx: { db, config: { ...ws.ctx.config, eolEnabled: true }, now: new Date() }, input: { workspaceId: ws.id } });
    expect(result.opened).toBe(1);
    const event = (await eventsOf(ws)).find((e) => e.type === "drift_detected");
    expect(event?.payload).toMatchObject({ kind: "eol", service: "db", running: "16.4", expected: null, state: "announced" });
  });
});

describe("drift inputs agree with the matrix's read models", () => {
  it("judges the same upstream tags as loadUpstream, and the matrix shows the versions drift judges", async () => {
    const ws = await makeWorkspace("drift-parity");
    await report(ws, "production", "docker@p1", [workload("web", "1.2", ago(DAY), 30), workload("api", "latest", ago(DAY), 31)]);
    await report(ws, "staging", "git@repo", [{ ...workload("web", "1.2.1", ago(DAY)), digest: null }], "compose_git");
    const db = testDb();
    const repo = await db.upstreamRepository.findFirstOrThrow({ where: { key: `${REGISTRY}/web`, ownerWorkspaceId: ws.id } });
    await db.upstreamTag.createMany({ data: ["1.2", "1.2.0", "1.2.1"].map((name) => ({ repositoryId: repo.id, name, platformDigests: [], firstSeenAt: new Date(Date.now() - DAY) })) });
    await db.digestResolution.create({ data: { repositoryId: repo.id, digest: D(30), tag: "1.2.1" } });

    const { loadUpstream } = await import("@/lib/db/queries/upstream/list-upstream-facts");
    const { loadDriftInputs } = await import("@/lib/services/drift/load-inputs");

    // The tags drift judges each service against are loadUpstream's for its repository.
    const inputs = await loadDriftInputs(db, { eolEnabled: false }, ws.id, new Date());
    const keys = [`${REGISTRY}/web`, `${REGISTRY}/api`];
    const shared = await loadUpstream(db, ws.id, keys);
    for (const key of keys) {
      const facts = inputs.facts.find((f) => (f.repository ?? f.runningRepository) === key);
      expect(facts, key).toBeDefined();
      const mine = inputs.services.find((s) => s.id === facts!.id)?.upstream;
      expect([...(mine?.tags ?? [])].sort()).toEqual([...(shared.get(key)?.tags ?? [])].sort());
      expect([...(mine?.firstSeen ?? [])].sort()).toEqual([...(shared.get(key)?.firstSeen ?? [])].sort());
    }

    // And the versions drift judges are the matrix's.
    const matrix = (await api(ws.viewer).get("/api/v1/matrix")).body as { services: { name: string; cells: { environment: string; targets: { name: string; version: string | null }[] }[] }[] };
    const fromMatrix = matrix.services.flatMap((s) => s.cells.flatMap((c) => c.targets.map((t) => `${s.name}|${t.name}|${t.version}`))).sort();
    const names = new Map(inputs.services.map((s) => [s.id, s.name] as const));
    expect(inputs.current.map((r) => `${names.get(r.serviceId)}|${r.targetName}|${r.version}`).sort()).toEqual(fromMatrix);
    expect(fromMatrix).toContain("web|docker@p1|1.2.1");
  });

  it("reads the same inputs a range of services at a time, and evaluation finds the same drift whatever the range", async () => {
    const ws = await makeWorkspace("drift-chunks");
    await pipeline(ws, [["dev", 0], ["staging", 1], ["production", 2]]);
    const names = ["api", "billing", "cart", "docs", "edge", "feed", "gate"];
    await report(ws, "staging", "docker@s1", names.map((n, i) => workload(n, `1.${i + 1}.0`, ago(3 * DAY), 50 + i)));
    await report(ws, "production", "docker@p1", names.map((n, i) => workload(n, `1.${i}.0`, ago(5 * DAY), 60 + i)));
    await report(ws, "production", "docker@p2", names.slice(0, 3).map((n, i) => workload(n, `1.${i + 1}.0`, ago(2 * DAY), 70 + i)));
    await report(ws, "staging", "git@repo", names.slice(2).map((n, i) => ({ ...workload(n, `2.${i}.0`, ago(DAY)), digest: null })), "compose_git");
    await report(ws, "dev", "git@dev", names.slice(4).map((n) => ({ ...workload(n, "3.0.0", ago(DAY)), digest: null })), "compose_git");
    const db = testDb();
    // Upstream tags for what two services run, and a service told to follow a repository
    // nothing runs: each range reads the tags of its own services' repositories.
    for (const name of ["api", "edge"]) {
      const repo = await db.upstreamRepository.findFirstOrThrow({ where: { key: `${REGISTRY}/${name}`, ownerWorkspaceId: ws.id } });
      await db.upstreamTag.createMany({ data: ["1.0.0", "1.9.0", "2.0.0"].map((tag) => ({ repositoryId: repo.id, name: tag, platformDigests: [], firstSeenAt: new Date(Date.now() - 2 * DAY) })) });
    }
    const followed = await db.upstreamRepository.create({ data: { key: `${REGISTRY}/followed`, host: "registry.drift.test", path: "acme/followed", ownerWorkspaceId: ws.id, scope: ws.id } });
    await db.upstreamTag.createMany({ data: ["5.0.0", "5.1.0"].map((tag) => ({ repositoryId: followed.id, name: tag, platformDigests: [], firstSeenAt: new Date(Date.now() - DAY) })) });
    await db.service.update({ where: { workspaceId_name: { workspaceId: ws.id, name: "docs" } }, data: { repository: `${REGISTRY}/followed` } });

    const { loadDriftInputs, readDriftInputsByChunk } = await import("@/lib/services/drift/load-inputs");
    const now = new Date();
    const whole = await loadDriftInputs(db, { eolEnabled: false }, ws.id, now);
    const serviceNamed = (name: string) => whole.services.find((s) => s.name === name)!;
    expect(whole.upstreamTags.get(serviceNamed("api").id)).toEqual(["1.0.0", "1.9.0", "2.0.0"]);
    expect(whole.upstreamTags.get(serviceNamed("docs").id)).toEqual(["5.0.0", "5.1.0"]);
    expect(serviceNamed("docs").upstream?.tags).toEqual(["5.0.0", "5.1.0"]);
    const row = (r: (typeof whole.current)[number]) => [r.serviceId, r.environmentId, r.targetId, r.targetName, r.tag, r.version, r.digest, r.declared, r.since.toISOString()].join("|");
    for (const size of [1, 2, 3, 1000]) {
      const reader = readDriftInputsByChunk(db, { eolEnabled: false }, ws.id, now, size);
      const chunks = [];
      for (let inputs = await reader.next(); inputs !== null; inputs = await reader.next()) chunks.push(inputs);
      expect(chunks.length).toBe(Math.ceil(names.length / size));
      // Each range is its own services, in id order, with their rows and upstream tags.
      const ids = chunks.flatMap((c) => c.services.map((s) => s.id));
      expect(ids).toEqual([...ids].sort());
      expect(new Set(ids)).toEqual(new Set(whole.services.map((s) => s.id)));
      for (const c of chunks) expect(c.current.every((r) => c.services.some((s) => s.id === r.serviceId))).toBe(true);
      expect(chunks.flatMap((c) => c.current.map(row)).sort()).toEqual(whole.current.map(row).sort());
      expect(chunks.flatMap((c) => c.facts).sort((a, b) => a.id.localeCompare(b.id))).toEqual([...whole.facts].sort((a, b) => a.id.localeCompare(b.id)));
      for (const c of chunks) for (const s of c.services) expect(c.upstreamTags.get(s.id)).toEqual(whole.upstreamTags.get(s.id));
    }

    // Evaluated a service at a time, then all at once: the same differences, nothing to change.
    const config = { eolEnabled: false, baseUrl: "http://drift.test" };
    const first = await evaluateWorkspaceDrift({ ctx: { db, config, now }, input: { workspaceId: ws.id, chunkServices: 1 } });
    expect(first.differences).toBeGreaterThan(3);
    const again = await evaluateWorkspaceDrift({ ctx: { db, config, now }, input: { workspaceId: ws.id } });
    expect(again).toMatchObject({ differences: first.differences, opened: 0, updated: 0, resolved: 0, events: 0 });
    const thirds = await evaluateWorkspaceDrift({ ctx: { db, config, now }, input: { workspaceId: ws.id, chunkServices: 3 } });
    expect(thirds).toMatchObject({ differences: first.differences, opened: 0, updated: 0, resolved: 0, events: 0 });
    expect(new Set((await drifts(ws)).map((d) => d.kind))).toEqual(new Set(["env", "inconsistent", "declared", "upstream"]));
  });

  it("writes openings and events a few rows a statement as in one: the same records and payloads", async () => {
    const ws = await makeWorkspace("drift-write-chunks");
    await pipeline(ws, [["staging", 10], ["production", 20]]);
    const names = ["api", "billing", "cart", "docs", "edge"];
    await report(ws, "staging", "docker@s1", names.map((n, i) => workload(n, `1.${i + 1}.0`, ago(10 * DAY), 80 + i)));
    await report(ws, "production", "docker@p1", names.map((n, i) => workload(n, `1.${i}.0`, ago(20 * DAY), 90 + i)));
    const db = testDb();
    // Everything but the ids (the event's and the drift's) and the instant of announcement (each evaluation's own clock).
    const recordOf = (d: { serviceId: string; environmentId: string; targetId: string | null; kind: string; state: string; running: string | null; expected: string | null; openedAt: Date; active: boolean | null }) =>
      [d.serviceId, d.environmentId, d.targetId, d.kind, d.state, d.running, d.expected, d.openedAt.toISOString(), d.active].join("|");
    const written = async () => ({
      drifts: (await db.drift.findMany({ where: { workspaceId: ws.id } })).map(recordOf).sort(),
      events: (await eventsOf(ws)).map((e) => {
        const { id: _id, drift_id: _drift, occurred_at: _at, announced_at: _announced, ...rest } = e.payload as Record<string, unknown>;
        return JSON.stringify([e.type, e.routedAt, rest]);
      }).sort(),
    });
    // What the server's evaluation wrote after the reports, in one statement each.
    const once = await written();
    expect(once.drifts.length).toBe(names.length);
    expect(once.events.length).toBe(names.length);

    // Written again two rows a statement (three statements of drifts, three of events).
    // The server's one-minute tick evaluates this workspace too: not at the turn of a minute.
    if (new Date().getSeconds() >= 55) await new Promise((r) => setTimeout(r, 7_000));
    await db.event.deleteMany({ where: { workspaceId: ws.id } });
    await db.drift.deleteMany({ where: { workspaceId: ws.id } });
    const result = await evaluateWorkspaceDrift({ ctx: { db, config: { eolEnabled: false, baseUrl: baseUrl() }, now: new Date() }, input: { workspaceId: ws.id, writeChunkRows: 2 } });
    expect(result).toMatchObject({ opened: names.length, events: names.length });
    const chunked = await written();
    expect(chunked).toEqual(once);
  });

  it("gives the same service facts as loadServiceFacts: running, declared, own and catalog repositories, check state, policies", async () => {
    const ws = await makeWorkspace("drift-facts");
    await report(ws, "production", "docker@p1", [
      workload("web", "1.2", ago(DAY), 40),
      { ...workload("web-sidecar", "0.1", ago(DAY), 41), service: "web", main: false },
      workload("api", "2.0.0", ago(2 * DAY), 42),
    ]);
    await report(ws, "production", "docker@p2", [{ ...workload("api", "2.0.1", ago(HOUR), 43), image: `${REGISTRY}/api-next:2.0.1` }]);
    await report(ws, "staging", "git@repo", [{ ...workload("web", "1.3.0", ago(DAY)), digest: null }, { ...workload("docs", "3.1.0", ago(DAY)), digest: null }], "compose_git");
    const db = testDb();
    await db.service.updateMany({ where: { workspaceId: ws.id, name: "api" }, data: { repository: "docker.io/library/nginx", policy: { track: "minor" }, team: "edge", application: "shop" } });
    const repo = await db.upstreamRepository.findFirstOrThrow({ where: { key: `${REGISTRY}/web`, ownerWorkspaceId: ws.id } });
    await db.upstreamRepository.update({ where: { id: repo.id }, data: { checkedAt: new Date(Date.now() - HOUR), lastError: "unauthorized", sourceLabel: "https://github.com/acme/web" } });

    const { loadServiceFacts } = await import("@/lib/db/queries/services/list-service-facts");
    const { loadDriftInputs } = await import("@/lib/services/drift/load-inputs");
    const inputs = await loadDriftInputs(db, { eolEnabled: false }, ws.id, new Date());
    const facts = await loadServiceFacts(db, ws.id);
    expect(inputs.facts).toEqual(facts);
    expect(facts.map((f) => [f.name, f.runningRepository])).toEqual([
      ["api", `${REGISTRY}/api-next`], ["docs", `${REGISTRY}/docs`], ["web", `${REGISTRY}/web`],
    ]);
    expect(facts.find((f) => f.name === "web")?.upstream).toMatchObject({ lastError: "unauthorized", sourceLabel: "https://github.com/acme/web" });
  });
});
