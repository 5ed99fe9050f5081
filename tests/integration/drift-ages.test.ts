// One fact, one age: a drift's age is its opened_at, and every Updates line's
// open_since is the opened_at of the drift behind its reason. An eol drift
// opens at the end-of-life day (or when that version began running there, if
// later); an upstream drift when the release was published, never before the
// running version began running there.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { evaluateWorkspaceDrift } from "@/lib/services/drift/evaluate-workspace";
import { currentMonth, getMonthlyReport } from "@/lib/services/reports/get-monthly";
import { api, makeWorkspace, testDb, type TestWorkspace } from "../support/api";
import { settled } from "../support/settle";

const MIN = 60_000;
const DAY = 86_400_000;
const NOW = Math.floor(Date.now() / MIN) * MIN - 5 * MIN;
const ago = (days: number) => new Date(NOW - days * DAY);
const utcDay = (days: number) => new Date(Date.UTC(ago(days).getUTCFullYear(), ago(days).getUTCMonth(), ago(days).getUTCDate()));
const D = (n: number) => `sha256:${n.toString(16).padStart(64, "0")}`;
const REGISTRY = "registry.ages.test/acme";

type Drift = { service: string; environment: string; kind: string; opened_at: string; running: string | null; expected: string | null };
type Line = { service: string; environment: string; reason: string; open_since: string };

const KIND_OF_REASON: Record<string, string> = { eol_passed: "eol", eol_soon: "eol", major: "upstream", minor: "upstream", patch: "upstream", behind_previous_env: "env" };

function workload(service: string, version: string, since: Date, digest: number) {
  return { service, container: service, main: true, image: `${REGISTRY}/${service}:${version}`, digest: D(digest), platform_digest: null, platform: "linux/amd64", since: since.toISOString() };
}

async function report(ws: TestWorkspace, environment: string, target: string, workloads: object[], kind = "docker") {
  const res = await api(ws.agentKey).post("/api/v1/agent/report", { environment, target: { name: target, kind }, observed_at: new Date(NOW).toISOString(), workloads });
  expect(res.status).toBe(202);
  await settled(ws);
}

/** Holds the scheduler's drift evaluation off the workspace, so what this test evaluated (end of life on) stays as written. */
async function holdDriftEvaluation(workspaceId: string): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString: inject("databaseUrl") });
  await client.connect();
  await client.query("SELECT pg_advisory_lock(hashtextextended($1, 0))", [`drift:${workspaceId}`]);
  return async () => {
    await client.query("SELECT pg_advisory_unlock_all()");
    await client.end();
  };
}

describe("drift ages", () => {
  let ws: TestWorkspace;
  let release: () => Promise<void>;
  let drifts: Drift[];
  let lines: Line[];

  beforeAll(async () => {
    ws = await makeWorkspace("drift-ages");
    for (const [name, position] of [["staging", 1], ["production", 2]] as const) {
      expect((await api(ws.member).post("/api/v1/environments", { name, position, production: name === "production" })).status).toBe(201);
    }
    await report(ws, "staging", "docker@stg", [workload("web", "1.27.0", ago(5), 1)]);
    // Git declares a newer web for staging than runs there: a Git difference, which Updates leaves out and the report lists.
    await report(ws, "staging", "git@repo", [{ ...workload("web", "1.27.1", ago(2), 9), digest: null }], "compose_git");
    await report(ws, "production", "docker@prod", [
      workload("db", "16.4", ago(200), 2), workload("web", "1.26.0", ago(40), 3), workload("api", "2.0.0", ago(8), 4),
    ]);

    const db = testDb();
    // Upstream tags first seen yesterday; the forge published them long before.
    for (const [name, tags] of [["web", ["1.26.0", "1.27.0"]], ["api", ["2.0.0", "2.1.0"]]] as const) {
      const repo = await db.upstreamRepository.findFirstOrThrow({ where: { key: `${REGISTRY}/${name}`, ownerWorkspaceId: ws.id } });
      await db.upstreamTag.createMany({ data: tags.map((tag) => ({ repositoryId: repo.id, name: tag, platformDigests: [], firstSeenAt: ago(1) })) });
    }
    const forge = `acme-${randomUUID().slice(0, 8)}/ages`;
    const forgeRepo = await db.forgeRepository.create({ data: { kind: "github", name: forge, fetchedAt: new Date() } });
    await db.release.createMany({
      data: [["v1.27.0", ago(12)], ["v2.1.0", ago(30)]].map(([tag, at]) => ({ forgeRepositoryId: forgeRepo.id, tag: tag as string, name: tag as string, publishedAt: at as Date, url: `https://github.com/${forge}/releases/tag/${tag}` })),
    });
    // db's cycle 16 ended ten days ago.
    const product = `ages-eol-${ws.id.slice(0, 8)}`;
    await db.eolProduct.create({ data: { name: product, fetchedAt: new Date(), data: { releases: [{ name: "16", releaseDate: null, isEol: true, eolFrom: utcDay(10).toISOString().slice(0, 10), isMaintained: false, isLts: false, latest: null }] } } });
    await db.service.updateMany({ where: { workspaceId: ws.id, name: { in: ["web", "api"] } }, data: { policy: { github: forge } } });
    await db.service.updateMany({ where: { workspaceId: ws.id, name: "db" }, data: { policy: { eol: product } } });

    // The shared test server runs with DRIFTWATCH_EOL=false: evaluate here with end-of-life data on, then hold its tick off.
    await evaluateWorkspaceDrift({ ctx: { db, config: { ...ws.ctx.config, eolEnabled: true }, now: new Date() }, input: { workspaceId: ws.id } });
    release = await holdDriftEvaluation(ws.id);
    const d = await api(ws.viewer).get("/api/v1/drifts");
    expect(d.status).toBe(200);
    drifts = d.body.items;
    const u = await api(ws.viewer).get("/api/v1/updates");
    expect(u.status).toBe(200);
    lines = u.body.items;
  });

  afterAll(async () => {
    await release?.();
  });

  const driftOf = (service: string, kind: string) => drifts.find((d) => d.service === service && d.environment === "production" && d.kind === kind);

  it("opens an eol drift at the cycle's end-of-life day, not 60 days before it", () => {
    expect(driftOf("db", "eol")?.opened_at).toBe(utcDay(10).toISOString());
  });

  it("opens an upstream drift when the release was published, not when its tag was first seen", () => {
    expect(driftOf("web", "upstream")).toMatchObject({ running: "1.26.0", expected: "1.27.0", opened_at: ago(12).toISOString() });
  });

  it("never opens an upstream drift before the running version began running there", () => {
    expect(driftOf("api", "upstream")).toMatchObject({ running: "2.0.0", expected: "2.1.0", opened_at: ago(8).toISOString() });
  });

  it("gives every Updates line the opened_at of the drift behind its reason", () => {
    expect(lines.map((l) => `${l.service}/${l.environment}`).sort()).toEqual(["api/production", "db/production", "web/production"]);
    for (const line of lines) {
      const drift = drifts.find((d) => d.service === line.service && d.environment === line.environment && d.kind === KIND_OF_REASON[line.reason]);
      expect(drift, `${line.service}/${line.environment} ${line.reason}`).toBeDefined();
      expect(line.open_since).toBe(drift?.opened_at);
    }
    expect(lines.find((l) => l.service === "db")?.open_since).toBe(utcDay(10).toISOString());
  });

  it("lists Git differences in the report after the Updates lines, with the same age", async () => {
    const report = await getMonthlyReport({ ctx: ws.ctx, input: { month: currentMonth(new Date()) } });
    const git = drifts.find((d) => d.kind === "declared");
    expect(git).toMatchObject({ service: "web", environment: "staging", running: "1.27.0", expected: "1.27.1" });
    expect(report.attention.items.map((a) => [a.what, a.service, a.environment])).toEqual([
      ["End of life passed", "db", "production"], ["Minor release", "web", "production"], ["Minor release", "api", "production"], ["Differs from Git", "web", "staging"],
    ]);
    expect(report.attention.items.at(-1)).toMatchObject({ detail: "runs 1.27.0 on docker@stg; Git declares 1.27.1", since: git?.opened_at });
    for (const line of lines) expect(report.attention.items.find((a) => a.service === line.service && a.environment === line.environment)?.since).toBe(line.open_since);
  });
});
