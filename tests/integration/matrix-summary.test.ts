// The matrix's summary line connects its markers to the lists: each count is
// the number of items the list it names gives (the updates list, drift with its
// default filter, promotions), and quiet targets are those whose last accepted
// report is older than DRIFTWATCH_QUIET_AFTER (15 minutes on the test server).
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_ACKS, DEMO_ENVIRONMENTS, RECORDED_HOST, demoImageDigest, demoReports, demoServiceUpdates } from "@/lib/domain/demo/plan";
import { api, makeWorkspace, testDb, type TestWorkspace } from "../support/api";

let ws: TestWorkspace;
const QUIET_TARGET = "docker@dev-1";

beforeAll(async () => {
  ws = await makeWorkspace("summary");
  const member = api(ws.member);
  for (const env of DEMO_ENVIRONMENTS) expect((await member.post("/api/v1/environments", env)).status).toBe(201);
  // The demo's sixty days, as its agent sends them (recorded upstream tags, so no registry is needed).
  const plan = { imageHost: RECORDED_HOST, digestOf: demoImageDigest, recordedTags: true, now: Date.now() };
  await Promise.all(demoReports(plan).map(async (reports) => {
    for (const report of reports) expect((await api(ws.agentKey).post("/api/v1/agent/report", report)).status).toBe(202);
  }));
  for (const { name, ...body } of demoServiceUpdates()) expect((await member.patch(`/api/v1/services/${name}`, body)).status).toBe(200);
  for (const ack of DEMO_ACKS) expect((await member.post("/api/v1/acks", ack)).status).toBe(201);
  // One target stopped reporting an hour ago (its agent is gone): set before anything reads the matrix.
  await testDb().$executeRaw`UPDATE targets SET last_report_at = now() - interval '1 hour' WHERE workspace_id = ${ws.id}::uuid AND name = ${QUIET_TARGET}`;
}, 180_000);

describe("GET /api/v1/matrix summary", () => {
  it("equals the number of updates, open drifts, promotions and quiet targets", async () => {
    const viewer = api(ws.viewer);
    // Drift is evaluated after the reports, asynchronously: wait until the lists have settled.
    let counts = { to_act_on: 0, open_drifts: 0, promotions_waiting: 0, quiet_targets: 0 };
    let summary: typeof counts | undefined;
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const [matrix, updates, drifts, promotions] = await Promise.all([
        viewer.get("/api/v1/matrix"), viewer.get("/api/v1/updates"), viewer.get("/api/v1/drifts"), viewer.get("/api/v1/promotions"),
      ]);
      summary = matrix.body.summary;
      counts = { to_act_on: updates.body.items.length, open_drifts: drifts.body.items.length, promotions_waiting: promotions.body.items.length, quiet_targets: 1 };
      if (JSON.stringify(summary) === JSON.stringify(counts) && counts.to_act_on > 0) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    expect(summary).toEqual(counts);
    expect(counts.to_act_on).toBeGreaterThan(0);
    expect(counts.open_drifts).toBeGreaterThan(counts.to_act_on);
    expect(counts.promotions_waiting).toBeGreaterThan(0);
  }, 90_000);

  it("counts the whole workspace whatever the filters", async () => {
    const [all, filtered] = await Promise.all([api(ws.viewer).get("/api/v1/matrix"), api(ws.viewer).get("/api/v1/matrix?team=payments&limit=1")]);
    expect(filtered.body.services).toHaveLength(1);
    expect(filtered.body.summary).toEqual(all.body.summary);
  });

  it("marks the quiet target and its cells, with the last report's time; the others report", async () => {
    const matrix = (await api(ws.viewer).get("/api/v1/matrix")).body;
    type Target = { name: string; declared: boolean; state: string; last_seen_at: string | null };
    type Cell = { environment: string; quiet: boolean; last_seen_at: string | null; targets: Target[] };
    const cells: Cell[] = matrix.services.flatMap((s: { cells: Cell[] }) => s.cells);
    const targets = cells.flatMap((c) => c.targets);
    const quiet = targets.filter((t) => t.name === QUIET_TARGET);
    expect(quiet.length).toBeGreaterThan(0);
    for (const t of quiet) {
      expect(t.state).toBe("quiet");
      expect(Date.now() - Date.parse(t.last_seen_at!)).toBeGreaterThan(55 * 60_000);
    }
    for (const t of targets.filter((x) => x.name !== QUIET_TARGET)) expect(t.state).toBe("reporting");
    // dev has that one target only: every dev cell is quiet, no other cell is.
    expect(cells.filter((c) => c.quiet).map((c) => c.environment).every((e) => e === "dev")).toBe(true);
    expect(cells.filter((c) => c.environment === "dev").every((c) => c.quiet)).toBe(true);
  });

  it("/metrics counts targets by state", async () => {
    const res = await api(ws.viewer).get("/metrics");
    expect(res.text).toMatch(/^driftwatch_targets\{state="quiet"\} 1$/m);
    expect(res.text).toMatch(/^driftwatch_targets\{state="reporting"\} 3$/m);
  });

  it("shows a quiet target's badge grey, its version marked quiet", async () => {
    const badge = await api(ws.member).get("/api/v1/services/checkout-api/badge?env=dev");
    expect(badge.status).toBe(200);
    const svg = await fetch(badge.body.url);
    expect(svg.status).toBe(200);
    expect(await svg.text()).toMatch(/quiet/);
  });
});
