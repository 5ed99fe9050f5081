// Helm releases beside images, end to end in one workspace: agent reports with helm_release rows
// and image rows, a classic chart repository on loopback (charts packaged by `helm package`, its
// index.yaml written by `helm repo index`), a chart pushed as OCI with `helm push` to the loopback
// registry. Releases become services with history, matrix rows, upstream and environment drift and
// promotions; a chart repository on a host the server may not call fails without a request.
import path from "node:path";
import { randomUUID } from "node:crypto";
import { parse as parseYaml } from "yaml";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createChartIndexClient } from "@/lib/adapters/charts/classic/client";
import { createEolClient } from "@/lib/adapters/eol";
import { createForgeClients } from "@/lib/adapters/forges";
import { createRegistryClient } from "@/lib/adapters/registries/client";
import { loadConfig, type Config } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import type { AgentReportInput, Workload } from "@/lib/domain/agent-report";
import { agentReportSchema } from "@/lib/domain/agent-report";
import { createAgentKey } from "@/lib/services/agent-keys/create";
import { recordAgentReport } from "@/lib/services/agent-reports/record";
import type { RequestCtx } from "@/lib/services/context";
import { evaluateAll } from "@/lib/services/drift/evaluate-all";
import { listDrifts } from "@/lib/services/drift/list-drifts";
import { createEnvironment } from "@/lib/services/environments/create";
import { listHistory } from "@/lib/services/history/list";
import { listPromotionsForWorkspace } from "@/lib/services/insights/promotions";
import { getMatrix } from "@/lib/services/matrix/get";
import { updateService } from "@/lib/services/services/update";
import type { CheckDeps } from "@/lib/services/upstream/check-repository";
import { runCheckTick } from "@/lib/services/upstream/run-check-tick";
import { setupWorkspace } from "@/lib/services/workspaces/setup";
import { chartWorkshop, indexYamlOf, serveChartRepository, type ChartRepositoryServer, type ChartWorkshop } from "../support/chart-repos";
import { registryPusher } from "../support/registry";
import { createScratchDb, type ScratchDb } from "../support/scratch-db";

const DAY = 86_400_000;
const T0 = Date.now();
const at = (daysAgo: number) => new Date(T0 - daysAgo * DAY).toISOString();
const IMAGE_REPO = `helmtest/web-${randomUUID().slice(0, 6)}`;
const OCI_NAMESPACE = `charts-${randomUUID().slice(0, 6)}`;

let scratch: ScratchDb;
let db: Db;
let config: Config;
let system: RequestCtx;
let agent: RequestCtx;
let workshop: ChartWorkshop;
let classic: ChartRepositoryServer;
let classicRoot: string;
let checks: CheckDeps;
let observed = 0;

const image = (service: string, tag: string, since: string): Workload => ({
  service, container: service, main: true, image: `${inject("registryHost")}/${IMAGE_REPO}:${tag}`, digest: null, platform_digest: null, platform: "linux/amd64", since,
});
const release = (service: string, chart: string, version: string, revision: number, since: string, repository: string | null = null): Workload => ({
  service, container: "chart", main: true, image: `${chart}:${version}`, digest: null, platform_digest: null, platform: null, since,
  kind: "helm_release", chart: { name: chart, version, app_version: null, namespace: "apps", release: service, revision, repository },
});
const report = (environment: string, workloads: Workload[]) => {
  const body: AgentReportInput = { environment, target: { name: `kubernetes@${environment}`, kind: "kubernetes" }, observed_at: new Date(T0 + observed++).toISOString(), workloads };
  return recordAgentReport({ ctx: agent, input: agentReportSchema.parse(body), evaluateDrift: false });
};

beforeAll(async () => {
  scratch = await createScratchDb("helm_releases");
  db = scratch.db;
  workshop = await chartWorkshop();
  classicRoot = path.join(workshop.dir, "classic");
  await workshop.packageChart("edge-proxy", ["4.11.1", "4.11.2", "4.11.3", "4.12.0"].map((version) => ({ version })), classicRoot);
  classic = await serveChartRepository(workshop, classicRoot);
  const oci = await workshop.packageChart("shop-api", ["0.4.0", "0.4.1", "0.5.0"].map((version) => ({ version })), path.join(workshop.dir, "oci"));
  for (const tgz of oci) await workshop.push(tgz, inject("registryHost"), OCI_NAMESPACE);
  const pusher = registryPusher(inject("registryUrl"));
  for (const tag of ["1.0.0", "1.1.0"]) await pusher.pushImage(IMAGE_REPO, tag);

  const hosts = [inject("registryHost"), classic.host];
  config = loadConfig({}, { serverRegistries: hosts, insecureRegistries: hosts, eolEnabled: false });
  const { workspaceId } = await setupWorkspace({ ctx: { db }, input: { workspace: "helm", email: "helm@example.test", password: `pw-${randomUUID()}` } });
  system = { db, config, get now() { return new Date(); }, actor: { kind: "system", workspaceId } };
  const key = await createAgentKey({ ctx: system, input: { name: "cluster-agent" } });
  agent = { ...system, actor: { kind: "agent", agentKeyId: key.id, workspaceId, name: "cluster-agent" } };
  await createEnvironment({ ctx: system, input: { name: "staging", position: 1, production: false } });
  await createEnvironment({ ctx: system, input: { name: "production", position: 2, production: true } });
  checks = {
    db, config, get now() { return new Date(); },
    clients: {
      registry: createRegistryClient({ insecureHosts: hosts }),
      charts: createChartIndexClient({ insecureHosts: hosts }),
      forges: createForgeClients({ githubApiUrl: "http://127.0.0.1:9" }),
      eol: createEolClient({ apiUrl: "http://127.0.0.1:9/api/v1", enabled: false }),
    },
  };

  const ociRepository = `oci://${inject("registryHost")}/${OCI_NAMESPACE}`;
  await report("production", [
    image("web", "1.0.0", at(10)),
    release("edge", "edge-proxy", "4.11.1", 1, at(10)),
    release("shop-api", "shop-api", "0.4.0", 1, at(6), ociRepository),
    release("legacy", "legacy-app", "2.0.0", 7, at(30)),
  ]);
  // An upgrade of the edge release: its revision 1 ends when revision 2 was deployed.
  await report("production", [
    image("web", "1.0.0", at(10)),
    release("edge", "edge-proxy", "4.11.2", 2, at(5)),
    release("shop-api", "shop-api", "0.4.0", 1, at(6), ociRepository),
    release("legacy", "legacy-app", "2.0.0", 7, at(30)),
  ]);
  await report("staging", [image("web", "1.1.0", at(3)), release("edge", "edge-proxy", "4.11.3", 5, at(2)), release("shop-api", "shop-api", "0.5.0", 3, at(2), ociRepository)]);
}, 240_000);

afterAll(async () => {
  await classic?.close();
  workshop?.close();
  await scratch?.drop();
});

const repositoryOf = (service: string) => db.$queryRaw<{ repository: string }[]>`
  SELECT DISTINCT r.repository FROM runs r JOIN services s ON s.id = r.service_id WHERE s.name = ${service} AND r."to" IS NULL`.then((rows) => rows.map((r) => r.repository));

describe("Helm releases as services", () => {
  it("names the chart's repository only from what the server may call", async () => {
    // Nothing names edge-proxy's repository yet, and legacy-app's is nowhere.
    expect(await repositoryOf("chart:edge")).toEqual(["chart:edge-proxy"]);
    // The release named an OCI repository on a registry the server queries: taken.
    expect(await repositoryOf("chart:shop-api")).toEqual([`oci://${inject("registryHost")}/${OCI_NAMESPACE}/shop-api`]);
    expect(await repositoryOf("chart:legacy")).toEqual(["chart:legacy-app"]);
    expect(await db.upstreamRepository.count({ where: { key: { startsWith: "chart:" } } })).toBe(0);
  });

  it("follows the policy's chart_repository at once, for the rows open now", async () => {
    await updateService({ ctx: system, input: { name: "chart:edge", policy: { chart_repository: classic.url } } });
    expect(await repositoryOf("chart:edge")).toEqual([`${classic.url}#edge-proxy`]);
    // The server refuses a host it may not call at once; one stored while it could (its setting since changed) still fails the check.
    await expect(updateService({ ctx: system, input: { name: "chart:legacy", policy: { chart_repository: "https://charts.example.invalid/stable" } } }))
      .rejects.toMatchObject({ code: "invalid_input", errors: [{ pointer: "/policy/chart_repository" }] });
    const permissive = { ...config, serverRegistries: [...config.serverRegistries, "charts.example.invalid"] };
    await updateService({ ctx: { ...system, config: permissive }, input: { name: "chart:legacy", policy: { chart_repository: "https://charts.example.invalid/stable" } } });
    expect(await repositoryOf("chart:legacy")).toEqual(["https://charts.example.invalid/stable#legacy-app"]);
    await expect(updateService({ ctx: system, input: { name: "chart:legacy", policy: { chart_repository: "charts.example.invalid" } } })).rejects.toMatchObject({ code: "invalid_input" });
  });

  it("checks chart versions from index.yaml and from OCI tags, and refuses a host it may not call", async () => {
    const before = classic.requests.length;
    const tick = await runCheckTick(checks);
    expect(tick.outcomes.filter((o) => o.status === "ok")).toHaveLength(3);
    expect(classic.requests.slice(before).map((r) => [r.path, r.status])).toEqual([["/index.yaml", 200]]);

    const tagsOf = async (key: string) => {
      const repo = await db.upstreamRepository.findFirstOrThrow({ where: { key }, include: { tags: { orderBy: { name: "asc" } } } });
      return { repo, tags: repo.tags.map((t) => [t.name, t.firstSeenAt.toISOString()]) };
    };
    // A classic repository's versions are first seen when they were published.
    const index = parseYaml(indexYamlOf(classicRoot)) as { entries: Record<string, { version: string; created: string }[]> };
    const published = index.entries["edge-proxy"]!.map((v) => [v.version, new Date(v.created).toISOString()]).sort();
    expect((await tagsOf(`${classic.url}#edge-proxy`)).tags).toEqual(published);
    const oci = await tagsOf(`oci://${inject("registryHost")}/${OCI_NAMESPACE}/shop-api`);
    expect(oci.tags.map(([name]) => name)).toEqual(["0.4.0", "0.4.1", "0.5.0"]);
    expect(oci.repo).toMatchObject({ checkedBy: "server", lastError: null });

    const legacy = await db.upstreamRepository.findFirstOrThrow({ where: { key: "https://charts.example.invalid/stable#legacy-app" } });
    expect(legacy).toMatchObject({
      checkedBy: "server", checkedAt: null, failures: 1,
      lastError: "charts.example.invalid: not a chart repository host the server may call; list it in DRIFTWATCH_SERVER_REGISTRIES",
    });
  });

  it("shows chart rows beside image rows in the matrix, with upstream state and drift", async () => {
    await evaluateAll({ ctx: { db, config, now: new Date() } });
    const matrix = await getMatrix({ ctx: system, input: {} });
    const row = (name: string) => {
      const s = matrix.services.find((x) => x.name === name)!;
      return { upstream: { repository: s.upstream.repository, newest: s.upstream.newest, state: s.upstream.state }, cells: s.cells.map((c) => [c.environment, c.tag, c.version, [...c.drifts].sort()]) };
    };
    expect(matrix.services.map((s) => [s.name, s.kind])).toEqual([["chart:edge", "chart"], ["chart:legacy", "chart"], ["chart:shop-api", "chart"], ["web", "image"]]);
    expect(row("chart:edge")).toEqual({
      upstream: { repository: `${classic.url}#edge-proxy`, newest: "4.12.0", state: "ok" },
      cells: [["staging", "4.11.3", "4.11.3", ["upstream"]], ["production", "4.11.2", "4.11.2", ["env", "upstream"]]],
    });
    expect(row("chart:shop-api").upstream).toEqual({ repository: `oci://${inject("registryHost")}/${OCI_NAMESPACE}/shop-api`, newest: "0.5.0", state: "ok" });
    expect(row("chart:shop-api").cells).toEqual([["staging", "0.5.0", "0.5.0", []], ["production", "0.4.0", "0.4.0", ["env", "upstream"]]]);
    // Never "up to date" when the chart's repository could not be read.
    const legacy = matrix.services.find((x) => x.name === "chart:legacy")!;
    expect(legacy.upstream).toMatchObject({ newest: null, state: "failed", error: expect.stringContaining("not a chart repository host") });
    expect(legacy.cells.flatMap((c) => c.drifts)).not.toContain("upstream");
    expect(row("web").cells).toEqual([["staging", "1.1.0", "1.1.0", []], ["production", "1.0.0", "1.0.0", ["env", "upstream"]]]);

    const drifts = await listDrifts({ ctx: system, input: {} });
    const kinds = (service: string) => drifts.items.filter((d) => d.service === service).map((d) => `${d.environment}:${d.kind}`).sort();
    expect(kinds("chart:edge")).toEqual(["production:env", "production:upstream", "staging:upstream"]);
    expect(kinds("chart:shop-api")).toEqual(["production:env", "production:upstream"]);
  });

  it("keeps each release's history and lists its promotions beside the images'", async () => {
    const history = await listHistory({ ctx: system, input: { service: "chart:edge" } });
    expect(history.items.map((h) => [h.environment, h.tag, h.from, h.to]).sort()).toEqual([
      ["production", "4.11.1", at(10), at(5)],
      ["production", "4.11.2", at(5), null],
      ["staging", "4.11.3", at(2), null],
    ]);
    const promotions = await listPromotionsForWorkspace({ ctx: system });
    expect(promotions.items.map((p) => [p.service, p.from_environment, p.to_environment, p.from_version, p.to_version]).sort()).toEqual([
      ["chart:edge", "staging", "production", "4.11.2", "4.11.3"],
      ["chart:shop-api", "staging", "production", "0.4.0", "0.5.0"],
      ["web", "staging", "production", "1.0.0", "1.1.0"],
    ]);
    // A classic repository dates each chart version (index.yaml's `created`): the promotion carries it.
    const index = parseYaml(indexYamlOf(classicRoot)) as { entries: Record<string, { version: string; created: string }[]> };
    const created = index.entries["edge-proxy"]!.find((v) => v.version === "4.11.3")!.created;
    expect(promotions.items.find((p) => p.service === "chart:edge")!.releases).toEqual([
      { version: "4.11.3", published_at: new Date(created).toISOString(), release_notes_url: null },
    ]);
  });

  it("a repeated report changes nothing, and a release that is gone closes", async () => {
    const again = await report("staging", [image("web", "1.1.0", at(3)), release("edge", "edge-proxy", "4.11.3", 5, at(2)), release("shop-api", "shop-api", "0.5.0", 3, at(2), `oci://${inject("registryHost")}/${OCI_NAMESPACE}`)]);
    expect(again).toMatchObject({ changed: false, opened: 0, closed: 0 });
    const gone = await report("staging", [image("web", "1.1.0", at(3)), release("edge", "edge-proxy", "4.11.3", 5, at(2))]);
    expect(gone).toMatchObject({ changed: true, opened: 0, closed: 1 });
  });
});
