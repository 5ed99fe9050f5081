// A Helm release and the pods it runs carry one name (`helm install redis bitnami/redis`: pods labelled
// app.kubernetes.io/name=redis and instance=redis). Read end to end: a replayed Kubernetes API serving
// the pods and Helm's own release Secrets, collected by the agent's adapter, intake, an upstream check
// against a classic chart repository and the loopback registry, drift and the matrix. The release is a
// service of its own; its pods keep their image service. Also: data stored before is split by the migration.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createChartIndexClient } from "@/lib/adapters/charts/classic/client";
import { createEolClient } from "@/lib/adapters/eol";
import { createForgeClients } from "@/lib/adapters/forges";
import { createRegistryClient } from "@/lib/adapters/registries/client";
import { collectKubernetes } from "@/lib/adapters/runtimes/kubernetes/collect-kubernetes";
import { loadConfig, type Config } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { MIGRATIONS_DIR } from "@/lib/db/migrate";
import { agentReportSchema } from "@/lib/domain/agent-report";
import { createAgentKey } from "@/lib/services/agent-keys/create";
import { recordAgentReport } from "@/lib/services/agent-reports/record";
import type { RequestCtx } from "@/lib/services/context";
import { evaluateAll } from "@/lib/services/drift/evaluate-all";
import { listDrifts } from "@/lib/services/drift/list-drifts";
import { createEnvironment } from "@/lib/services/environments/create";
import { getMatrix } from "@/lib/services/matrix/get";
import type { CheckDeps } from "@/lib/services/upstream/check-repository";
import { runCheckTick } from "@/lib/services/upstream/run-check-tick";
import { setupWorkspace } from "@/lib/services/workspaces/setup";
import { api, baseUrl, makeWorkspace } from "../support/api";
import { chartWorkshop, serveChartRepository, type ChartRepositoryServer, type ChartWorkshop } from "../support/chart-repos";
import { sessionCookie, sessionRequest } from "../support/session";
import { releasePod, releaseSecret, secretListAnswer, type RecordSpec } from "../support/helm-release-records";
import { registryPusher } from "../support/registry";
import { startReplayServer, type ReplayServer } from "../support/replay-server";
import { createScratchDb, type ScratchDb } from "../support/scratch-db";

const IMAGE_REPO = `bitnami-${randomUUID().slice(0, 6)}/redis`;
const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString().replace(/\.\d+Z$/, "Z");

let scratch: ScratchDb;
let db: Db;
let config: Config;
let workspaceId: string;
let system: RequestCtx;
let agent: RequestCtx;
let workshop: ChartWorkshop;
let classic: ChartRepositoryServer;
let kube: ReplayServer;
let kubeDir: string;
let checks: CheckDeps;

beforeAll(async () => {
  scratch = await createScratchDb("helm_release_pods");
  db = scratch.db;
  workshop = await chartWorkshop();
  const root = path.join(workshop.dir, "classic");
  await workshop.packageChart("redis", [{ version: "0.4.0", appVersion: "2.4.1" }, { version: "0.5.0", appVersion: "2.5.0" }], root);
  classic = await serveChartRepository(workshop, root);
  const pusher = registryPusher(inject("registryUrl"));
  const running = await pusher.pushImage(IMAGE_REPO, "2.4.1");
  await pusher.pushImage(IMAGE_REPO, "2.5.0");

  const hosts = [inject("registryHost"), classic.host];
  config = loadConfig({}, { serverRegistries: hosts, insecureRegistries: hosts, eolEnabled: false });
  ({ workspaceId } = await setupWorkspace({ ctx: { db }, input: { workspace: "redis", email: "redis@example.test", password: `pw-${randomUUID()}` } }));
  system = { db, config, get now() { return new Date(); }, actor: { kind: "system", workspaceId } };
  const key = await createAgentKey({ ctx: system, input: { name: "cluster-agent" } });
  agent = { ...system, actor: { kind: "agent", agentKeyId: key.id, workspaceId, name: "cluster-agent" } };
  await createEnvironment({ ctx: system, input: { name: "production", position: 1, production: true } });
  checks = {
    db, config, get now() { return new Date(); },
    clients: {
      registry: createRegistryClient({ insecureHosts: hosts }),
      charts: createChartIndexClient({ insecureHosts: hosts }),
      forges: createForgeClients({ githubApiUrl: "http://127.0.0.1:9" }),
      eol: createEolClient({ apiUrl: "http://127.0.0.1:9/api/v1", enabled: false }),
    },
  };

  // `helm install redis` (0.3.0), then `helm upgrade redis` to 0.4.0, whose pods run the image 2.4.1.
  const chart = { name: "redis", appVersion: "2.4.1", annotations: { "driftwatch.io/chart-repository": classic.url } };
  const records: RecordSpec[] = [
    { release: "redis", namespace: "cache", revision: 1, status: "superseded", chart: { ...chart, version: "0.3.0" }, firstDeployed: ago(20), lastDeployed: ago(20) },
    { release: "redis", namespace: "cache", revision: 2, status: "deployed", chart: { ...chart, version: "0.4.0" }, firstDeployed: ago(20), lastDeployed: ago(8) },
  ];
  const image = `${inject("registryHost")}/${IMAGE_REPO}:2.4.1`;
  const pods = ["redis-master-0", "redis-replicas-0"].map((pod) =>
    releasePod({ release: "redis", chart: "redis", chartVersion: "0.4.0", namespace: "cache", pod, image, digest: running.digest, startedAt: ago(8) }));
  kube = await startReplayServer([
    { path: "/api/v1/pods", reply: { body: { kind: "PodList", apiVersion: "v1", metadata: { resourceVersion: "5400" }, items: pods } } },
    { path: "/api/v1/nodes", reply: { body: { kind: "NodeList", apiVersion: "v1", metadata: {}, items: [] } } },
    { path: "/api/v1/secrets", reply: (_req, url) => ({ body: secretListAnswer(records.map(releaseSecret), url) }) },
  ]);
  kubeDir = mkdtempSync(path.join(os.tmpdir(), "dw-kube-"));
  writeFileSync(path.join(kubeDir, "config"), [
    "apiVersion: v1", "kind: Config", "current-context: prod",
    "clusters:", "- name: prod", "  cluster:", `    server: ${kube.url}`,
    "contexts:", "- name: prod", "  context: {cluster: prod, user: agent}",
    "users:", "- name: agent", "  user:", "    token: kube-token-123",
  ].join("\n"));
}, 240_000);

afterAll(async () => {
  await kube?.close();
  await classic?.close();
  workshop?.close();
  if (kubeDir) rmSync(kubeDir, { recursive: true, force: true });
  await scratch?.drop();
});

async function collectAndReport(): Promise<void> {
  const { observations } = await collectKubernetes({ environment: "production", kubeconfig: path.join(kubeDir, "config") });
  for (const o of observations) {
    await recordAgentReport({ ctx: agent, input: agentReportSchema.parse({ ...o, observed_at: new Date().toISOString() }), evaluateDrift: false });
  }
}

const serviceNames = async (workspace: string) =>
  (await db.service.findMany({ where: { workspaceId: workspace }, orderBy: { name: "asc" }, select: { name: true } })).map((s) => s.name);

describe("a Helm release and its pods of the same name", () => {
  it("are two services: the release's chart:redis checked in its chart repository, the pods' redis in the registry", async () => {
    await collectAndReport();
    expect(await serviceNames(workspaceId)).toEqual(["chart:redis", "redis"]);

    const before = classic.requests.length;
    const tick = await runCheckTick(checks);
    expect(tick.outcomes.map((o) => o.status)).toEqual(["ok", "ok"]);
    expect(classic.requests.slice(before).map((r) => r.path)).toEqual(["/index.yaml"]);
    await evaluateAll({ ctx: { db, config, now: new Date() } });

    const matrix = await getMatrix({ ctx: system, input: {} });
    expect(matrix.services.map((s) => ({
      name: s.name, kind: s.kind, repository: s.upstream.repository, newest: s.upstream.newest, state: s.upstream.state,
      cells: s.cells.map((c) => [c.environment, c.tag, c.version, [...c.drifts].sort()]),
    }))).toEqual([
      { name: "chart:redis", kind: "chart", repository: `${classic.url}#redis`, newest: "0.5.0", state: "ok", cells: [["production", "0.4.0", "0.4.0", ["upstream"]]] },
      { name: "redis", kind: "image", repository: `${inject("registryHost")}/${IMAGE_REPO}`, newest: "2.5.0", state: "ok", cells: [["production", "2.4.1", "2.4.1", ["upstream"]]] },
    ]);
    const drifts = await listDrifts({ ctx: system, input: {} });
    expect(drifts.items.map((d) => [d.service, d.kind, d.running, d.expected]).sort()).toEqual([
      ["chart:redis", "upstream", "0.4.0", "0.5.0"],
      ["redis", "upstream", "2.4.1", "2.5.0"],
    ]);
  });

  it("refuses an image workload that takes a release's name", async () => {
    const parsed = agentReportSchema.safeParse({
      environment: "production", target: { name: "kubernetes@prod", kind: "kubernetes" }, observed_at: new Date().toISOString(),
      workloads: [{ service: "chart:redis", container: "redis", main: true, image: "redis:7", digest: null, platform_digest: null, platform: null, since: ago(1) }],
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => [i.path.join("/"), i.message])).toEqual([["workloads/0/service", 'may not start with "chart:": that names a Helm release\'s service']]);
  });

  it("the migration splits a release stored in its pods' service and renames a release stored alone", async () => {
    // The shape stored before releases had services of their own: one service "redis" holding the
    // release's rows and the pods', with the policy's chart_repository; a lone release "edge".
    const { workspaceId: old } = await setupWorkspace({ ctx: { db }, input: { workspace: "before", email: "before@example.test", password: `pw-${randomUUID()}` } });
    const oldAgentKey = await createAgentKey({ ctx: { ...system, actor: { kind: "system", workspaceId: old } }, input: { name: "old-agent" } });
    const oldAgent: RequestCtx = { ...system, actor: { kind: "agent", agentKeyId: oldAgentKey.id, workspaceId: old, name: "old-agent" } };
    const { observations } = await collectKubernetes({ environment: "production", kubeconfig: path.join(kubeDir, "config") });
    const edge = { service: "edge", container: "chart", main: true, image: "edge-proxy:4.11.2", digest: null, platform_digest: null, platform: null, since: ago(5),
      kind: "helm_release" as const, chart: { name: "edge-proxy", version: "4.11.2", app_version: null, namespace: "cache", release: "edge", revision: 2 } };
    for (const o of observations) {
      await recordAgentReport({ ctx: oldAgent, input: agentReportSchema.parse({ ...o, workloads: [...o.workloads, edge], observed_at: new Date().toISOString() }), evaluateDrift: false });
    }
    const id = async (name: string) => (await db.service.findFirstOrThrow({ where: { workspaceId: old, name } })).id;
    const [chartRedis, redis, chartEdge] = [await id("chart:redis"), await id("redis"), await id("chart:edge")];
    await db.$executeRaw`UPDATE runs SET service_id = ${redis}::uuid WHERE service_id = ${chartRedis}::uuid`;
    await db.$executeRaw`DELETE FROM services WHERE id = ${chartRedis}::uuid`;
    await db.$executeRaw`UPDATE services SET name = 'edge' WHERE id = ${chartEdge}::uuid`;
    await db.$executeRaw`UPDATE services SET policy = ${JSON.stringify({ chart_repository: classic.url, min_release_age: "2d" })}::jsonb WHERE id = ${redis}::uuid`;
    expect(await serviceNames(old)).toEqual(["edge", "redis"]);

    const [migration] = readdirMigrations("_helm_release_services");
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    try {
      await client.query(`BEGIN; ${migration}; COMMIT;`);
    } finally {
      await client.end();
    }

    expect(await serviceNames(old)).toEqual(["chart:edge", "chart:redis", "redis"]);
    expect((await db.service.findFirstOrThrow({ where: { workspaceId: old, name: "chart:edge" } })).id).toBe(chartEdge);
    const open = await db.$queryRaw<{ name: string; repository: string; tag: string }[]>`
      SELECT s.name, r.repository, r.tag FROM runs r JOIN services s ON s.id = r.service_id
      WHERE r.workspace_id = ${old}::uuid AND r."to" IS NULL ORDER BY s.name, r.tag`;
    expect(open.map((r) => [r.name, r.repository, r.tag])).toEqual([
      ["chart:edge", "chart:edge-proxy", "4.11.2"],
      ["chart:redis", `${classic.url}#redis`, "0.4.0"],
      ["redis", `${inject("registryHost")}/${IMAGE_REPO}`, "2.4.1"],
    ]);
    const policies = await db.service.findMany({ where: { workspaceId: old, name: { in: ["chart:redis", "redis"] } }, orderBy: { name: "asc" }, select: { policy: true } });
    expect(policies.map((p) => p.policy)).toEqual([{ chart_repository: classic.url, min_release_age: "2d" }, { min_release_age: "2d" }]);
    // The other workspace, already in the new shape, is left as it was.
    expect(await serviceNames(workspaceId)).toEqual(["chart:redis", "redis"]);
  });
});

describe("a release's chart_repository, through the API and the command line", () => {
  const namespace = `charts-${randomUUID().slice(0, 6)}`;
  let ws: Awaited<ReturnType<typeof makeWorkspace>>;
  const patch = (service: string, chart_repository: string) =>
    api(ws.member).patch(`/api/v1/services/${encodeURIComponent(service)}`, { policy: { chart_repository } });

  beforeAll(async () => {
    ws = await makeWorkspace("chartrepo");
    const tgz = await workshop.packageChart("valkey", [{ version: "0.1.0" }, { version: "0.2.0" }], path.join(workshop.dir, "oci-valkey"));
    for (const t of tgz) await workshop.push(t, inject("registryHost"), namespace);
    const res = await api(ws.agentKey).post("/api/v1/agent/report", {
      environment: "production", target: { name: "kubernetes@cli", kind: "kubernetes" }, observed_at: new Date().toISOString(),
      workloads: [
        { service: "valkey", container: "valkey", main: true, image: `${inject("registryHost")}/${IMAGE_REPO}:2.4.1`, digest: null, platform_digest: null, platform: "linux/amd64", since: ago(3) },
        { service: "valkey", container: "chart", main: true, image: "valkey:0.1.0", digest: null, platform_digest: null, platform: null, since: ago(3), kind: "helm_release",
          chart: { name: "valkey", version: "0.1.0", app_version: "2.4.1", namespace: "cache", release: "valkey", revision: 1, repository: `oci://${inject("registryHost")}/${namespace}` } },
      ],
    });
    expect(res.status).toBe(202);
  }, 120_000);

  it.each([
    ["a host the server may not call", "https://charts.example.invalid/stable",
      "charts.example.invalid is not a chart repository host the server may call: add it to DRIFTWATCH_SERVER_REGISTRIES"],
    ["the same over http", "http://charts.example.invalid/stable",
      "charts.example.invalid is not a chart repository host the server may call: add it to DRIFTWATCH_SERVER_REGISTRIES and, as it is served over http, to DRIFTWATCH_INSECURE_REGISTRIES"],
    ["an OCI registry the server does not query", "oci://registry.example.invalid/charts",
      "registry.example.invalid is not a chart repository host the server may call: add it to DRIFTWATCH_SERVER_REGISTRIES"],
    ["no repository at all", "charts.example.invalid/stable",
      "must be a chart repository: a classic one as https://host/path (where https://host/path/index.yaml is served; that address is taken too, and http:// for hosts in DRIFTWATCH_INSECURE_REGISTRIES) or an OCI one as oci://host/path"],
  ])("refuses %s with 422, naming the setting to change", async (_, repository, detail) => {
    const r = await patch("chart:valkey", repository);
    expect(r.status).toBe(422);
    expect(r.contentType).toContain("application/problem+json");
    expect(r.body.errors).toEqual([{ pointer: "/policy/chart_repository", detail }]);
    const after = await api(ws.member).get(`/api/v1/services/${encodeURIComponent("chart:valkey")}`);
    expect(after.body.policy?.chart_repository).toBeUndefined();
  });

  it("refuses a chart repository on the pods' image service, and takes one the server may call", async () => {
    const image = await patch("valkey", `oci://${inject("registryHost")}/${namespace}`);
    expect(image.status).toBe(422);
    expect(image.body.errors).toEqual([{ pointer: "/policy/chart_repository", detail: "valkey runs images; chart_repository belongs on a Helm release's service (chart:<release>)" }]);
    expect((await patch("chart:valkey", `oci://${inject("registryHost")}/${namespace}`)).status).toBe(200);
  });

  it("the release's service page and the image service's are two pages", async () => {
    const cookie = await sessionCookie(ws.owner.email, ws.owner.password);
    const chart = await sessionRequest(cookie, "GET", `/services/${encodeURIComponent("chart:valkey")}`);
    expect(chart.status).toBe(200);
    expect(chart.text).toContain("chart:valkey");
    expect(chart.text).toContain("0.1.0");
    const image = await sessionRequest(cookie, "GET", "/services/valkey");
    expect(image.status).toBe(200);
    expect(image.text).toContain("2.4.1");
    expect(image.text).not.toContain("0.1.0");
  });

  it("check --wait names the chart, not its key", () => {
    const r = spawnSync(process.execPath, [path.resolve(import.meta.dirname, "../../bin/driftwatch.mjs"), "check", "--service", "chart:valkey", "--wait", "--url", baseUrl(), "--token", ws.member], {
      encoding: "utf8", timeout: 120_000, env: { ...process.env, DATABASE_URL: inject("databaseUrl") },
    });
    expect(r.status, r.stderr).toBe(0);
    const where = `chart valkey (oci://${inject("registryHost")}/${namespace})`;
    expect(r.stdout).toBe(`Checking ${where}…\nChecked ${where}: new release 0.2.0.\n`);
  });
});

function readdirMigrations(suffix: string): string[] {
  const dirs = readdirSync(MIGRATIONS_DIR).filter((d) => d.endsWith(suffix));
  return dirs.map((d) => readFileSync(path.join(MIGRATIONS_DIR, d, "migration.sql"), "utf8"));
}
