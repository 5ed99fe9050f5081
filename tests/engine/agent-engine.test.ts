// The agent against a real Docker Engine 20.10 in Swarm mode: `driftwatch agent --once` reads the
// engine and reports to the running server, which resolves moving tags by digest in the loopback
// registry. Images are built offline, pushed, deleted and pulled back.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { collectNomad } from "@/lib/adapters/runtimes/nomad/collect-nomad";
import { readNodeContainers } from "@/lib/adapters/runtimes/nomad/node-docker";
import { createDockerClient, dockerEndpoint } from "@/lib/adapters/runtimes/docker/engine-client";
import { api, baseUrl, makeWorkspace, type TestWorkspace } from "../support/api";
import { dockerCli, pullBack, pushIndex, pushTestImage, tagAndPush, waitUntil, type DockerCli } from "../support/docker-engine";
import { startReplayServer, type ReplayServer } from "../support/replay-server";

const ROOT = path.resolve(import.meta.dirname, "../..");
let ws: TestWorkspace;
let docker: DockerCli;
let app: string;
const digests: Record<string, string> = {};

function agent(args: string[]): Promise<{ status: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(ROOT, "bin/driftwatch.mjs"), "agent", "--once", "--url", baseUrl(), "--key", ws.agentKey, ...args],
      { cwd: ROOT, encoding: "utf8", timeout: 90_000 },
      (err, stdout, stderr) => resolve({ status: err ? Number((err as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
    );
  });
}

async function reportDocker(environment = "production") {
  const r = await agent(["--environment", environment, "--docker-host", inject("dockerHost")]);
  expect(r.status, r.out).toBe(0);
}

async function reportSwarm(environment = "swarm") {
  const r = await agent(["--environment", environment, "--swarm-host", inject("dockerHost")]);
  expect(r.status, r.out).toBe(0);
}

type Cell = { environment: string; tag: string; version: string | null; targets: { name: string; digest: string | null }[] };
type HistoryRow = { service: string; environment: string; target: string; tag: string; version: string | null; digest: string | null; from: string; to: string | null };

const matrixCell = async (service: string, environment: string): Promise<Cell | undefined> => {
  const m = await api(ws.viewer).get("/api/v1/matrix");
  const row = m.body.services.find((s: { name: string }) => s.name === service);
  return row?.cells.find((c: Cell) => c.environment === environment);
};
const history = async (): Promise<HistoryRow[]> => (await api(ws.viewer).get("/api/v1/history?limit=200")).body.items;
const inspect = async (name: string, format: string) => docker("inspect", "-f", format, name);
/** The engine's RFC 3339 nanosecond time as the API stores it (milliseconds). */
const ms = (engineTime: string) => new Date(engineTime).toISOString();

beforeAll(async () => {
  ws = await makeWorkspace("engine-agent");
  docker = dockerCli({ dir: inject("dockerDir"), host: inject("dockerHost") });
  app = `${inject("registryHost")}/engine/app`;
  digests["1.27.2"] = await pushTestImage(docker, `${app}:1.27.2`, "1.27.2");
  digests["1.27.3"] = await pushTestImage(docker, `${app}:1.27.3`, "1.27.3");
  for (const moving of ["1.27", "latest"]) digests[moving] = await tagAndPush(docker, `${app}:1.27.3`, `${app}:${moving}`);
  // The index's entries live in another repository: its tags are not versions of the app.
  const parts = `${inject("registryHost")}/engine/app-parts`;
  await pushTestImage(docker, `${parts}:amd64`, "1.28.0");
  await pushTestImage(docker, `${parts}:arm64`, "1.28.0-arm64");
  digests["1.28.0"] = await pushIndex(docker, `${app}:1.28.0`, `${parts}:amd64`, `${parts}:arm64`);
  digests["1.28"] = await pushIndex(docker, `${app}:1.28`, `${parts}:amd64`, `${parts}:arm64`);
  await pullBack(docker, ["1.27.2", "1.27.3", "1.27", "latest", "1.28"].map((t) => `${app}:${t}`));
});

afterAll(async () => {
  const ids = await docker?.("ps", "-aq").catch(() => "");
  if (ids) await docker("rm", "-f", ...ids.split("\n"));
});

describe("the agent on a real Docker Engine", () => {
  it("negotiates the engine's API version", async () => {
    const client = createDockerClient(dockerEndpoint({ url: inject("dockerHost") }));
    const engineApi = await docker("version", "-f", "{{.Server.APIVersion}}");
    expect(await client.apiVersion()).toBe(engineApi);
    expect((await client.info()).Name).toBe(await docker("info", "-f", "{{.Name}}"));
  });

  it("reports Compose and driftwatch.service containers; the matrix resolves moving tags and an index by digest", async () => {
    expect(digests["1.27"]).toBe(digests["1.27.3"]);
    expect(digests["1.28"]).toBe(digests["1.28.0"]);
    const compose = (project: string, service: string) => ["--label", `com.docker.compose.project=${project}`, "--label", `com.docker.compose.service=${service}`];
    await docker("run", "-d", "--name", "shop-web-1", ...compose("shop", "web"), `${app}:latest`);
    await docker("run", "-d", "--name", "shop-api-1", ...compose("shop", "api"), `${app}:1.27`);
    await docker("run", "-d", "--name", "shop-worker-1", ...compose("shop", "worker"), `${app}:1.27.2`);
    await docker("run", "-d", "--name", "proxy", "--label", "driftwatch.service=edge", `${app}:1.28`);
    // The image pulled by the index's tag records the index digest.
    expect(await docker("image", "inspect", "-f", "{{json .RepoDigests}}", `${app}:1.28`)).toContain(digests["1.28"]);

    await reportDocker();
    for (const s of ["web", "api", "edge"]) expect((await api(ws.member).post(`/api/v1/services/${s}/check`)).status).toBe(202);
    await waitUntil("the moving tags' versions", async () => (await matrixCell("web", "production"))?.version === "1.27.3" && (await matrixCell("edge", "production"))?.version === "1.28.0");

    const engineName = await docker("info", "-f", "{{.Name}}");
    expect(await matrixCell("web", "production")).toMatchObject({ tag: "latest", version: "1.27.3", targets: [{ name: `docker@${engineName}`, digest: digests["1.27.3"] }] });
    await waitUntil("api's version", async () => (await matrixCell("api", "production"))?.version === "1.27.3");
    expect(await matrixCell("api", "production")).toMatchObject({ tag: "1.27", version: "1.27.3" });
    expect(await matrixCell("worker", "production")).toMatchObject({ tag: "1.27.2", version: "1.27.2", targets: [{ digest: digests["1.27.2"] }] });
    expect(await matrixCell("edge", "production")).toMatchObject({ tag: "1.28", version: "1.28.0", targets: [{ digest: digests["1.28.0"] }] });

    const rows = await history();
    for (const [service, container] of [["web", "shop-web-1"], ["api", "shop-api-1"], ["edge", "proxy"]] as const) {
      const row = rows.find((r) => r.service === service && r.to === null);
      expect(row?.from, service).toBe(ms(await inspect(container, "{{.State.StartedAt}}")));
    }
    // History gives moving tags the version their digest resolved to, as the matrix does.
    const open = (service: string) => rows.find((r) => r.service === service && r.to === null);
    expect([open("web"), open("api"), open("edge"), open("worker")].map((r) => [r?.tag, r?.version])).toEqual([
      ["latest", "1.27.3"], ["1.27", "1.27.3"], ["1.28", "1.28.0"], ["1.27.2", "1.27.2"],
    ]);
  });

  it("closes the row of a container replaced by a newer image and opens the next; a removed container's row closes", async () => {
    await docker("rm", "-f", "shop-web-1");
    await docker("run", "-d", "--name", "shop-web-1", "--label", "com.docker.compose.project=shop", "--label", "com.docker.compose.service=web", `${app}:1.28`);
    await docker("rm", "-f", "shop-worker-1");
    await reportDocker();

    const started = ms(await inspect("shop-web-1", "{{.State.StartedAt}}"));
    const rows = await history();
    const web = rows.filter((r) => r.service === "web" && r.environment === "production");
    expect(web.find((r) => r.tag === "latest")).toMatchObject({ to: started, version: "1.27.3" });
    expect(web.find((r) => r.tag === "1.28")).toMatchObject({ from: started, to: null, digest: digests["1.28"], version: "1.28.0" });
    const worker = rows.find((r) => r.service === "worker");
    expect(worker?.to).not.toBeNull();
    expect(await matrixCell("worker", "production")).toBeUndefined();
  });

  it("reports Swarm services from their tasks' pinned digests, a rolling update as inconsistent until it settles", async () => {
    await docker(
      "service", "create", "-d", "--name", "edge_gateway", "--replicas", "2",
      "--label", "com.docker.stack.namespace=edge", "--container-label", "com.docker.stack.namespace=edge",
      // busybox's sleep ignores SIGTERM: no grace period to sit out at each replacement.
      "--stop-grace-period", "0s", "--update-parallelism", "1", "--update-delay", "12s", `${app}:1.27.2`,
    );
    const running = async () => (await docker("service", "ps", "edge_gateway", "--filter", "desired-state=running", "--format", "{{.CurrentState}}|{{.Image}}")).split("\n").filter((l) => l.startsWith("Running"));
    await waitUntil("two gateway tasks", async () => (await running()).length === 2);
    expect(await docker("service", "inspect", "-f", "{{.Spec.TaskTemplate.ContainerSpec.Image}}", "edge_gateway")).toBe(`${app}:1.27.2@${digests["1.27.2"]}`);

    await reportSwarm();
    const cell = await matrixCell("gateway", "swarm");
    expect(cell).toMatchObject({ tag: "1.27.2", version: "1.27.2", targets: [{ name: expect.stringMatching(/^swarm@/), digest: digests["1.27.2"] }] });
    // Swarm containers belong to the Swarm target, not to the engine's plain containers.
    await reportDocker();
    expect(await matrixCell("gateway", "production")).toBeUndefined();

    await docker("service", "update", "-d", "--image", `${app}:1.27.3`, "edge_gateway");
    await waitUntil("one task updated, one not", async () => {
      const images = (await running()).map((l) => l.split("|")[1]);
      return images.length === 2 && images.some((i) => i?.endsWith(":1.27.3")) && images.some((i) => i?.endsWith(":1.27.2"));
    });
    await reportSwarm();
    const drifts = async (state: string) => (await api(ws.viewer).get(`/api/v1/drifts?state=${state}`)).body.items as { service: string; environment: string; kind: string; running: string; expected: string }[];
    expect((await drifts("open")).filter((d) => d.service === "gateway")).toEqual([
      expect.objectContaining({ environment: "swarm", kind: "inconsistent", running: "1.27.2", expected: "1.27.3" }),
    ]);

    await waitUntil("the update to complete", async () => (await docker("service", "inspect", "-f", "{{if .UpdateStatus}}{{.UpdateStatus.State}}{{end}}", "edge_gateway")) === "completed", 120_000);
    await waitUntil("both tasks on 1.27.3", async () => (await running()).filter((l) => l.endsWith(":1.27.3")).length === 2);
    await reportSwarm();
    expect((await drifts("open")).filter((d) => d.service === "gateway")).toEqual([]);
    expect((await drifts("resolved")).filter((d) => d.service === "gateway")).toEqual([expect.objectContaining({ kind: "inconsistent" })]);
    expect(await matrixCell("gateway", "swarm")).toMatchObject({ tag: "1.27.3", version: "1.27.3", targets: [{ digest: digests["1.27.3"] }] });
  });
});

describe("the Nomad adapter's node part on a real Docker Engine", () => {
  let nomad: ReplayServer | undefined;
  afterAll(async () => nomad?.close());

  it("reads the digests of the containers Nomad started, and joins them to the allocations", async () => {
    // A recorded allocation (no Nomad server can run here), its tasks' images pointed at the test registry.
    const fixtures = path.join(ROOT, "tests/fixtures/runtimes/nomad");
    const stub = JSON.parse(readFileSync(path.join(fixtures, "allocations-1.json"), "utf8"))[0];
    const alloc = JSON.parse(readFileSync(path.join(fixtures, "allocation", `${stub.ID}.json`), "utf8"));
    const group = alloc.Job.TaskGroups.find((g: { Name: string }) => g.Name === alloc.TaskGroup);
    for (const task of group.Tasks) task.Config.image = `${app}:1.27.3`;
    nomad = await startReplayServer([
      { path: "/v1/agent/self", reply: { body: JSON.parse(readFileSync(path.join(fixtures, "agent-self.json"), "utf8")) } },
      { path: "/v1/allocations", reply: { body: [stub] } },
      { path: new RegExp(`^/v1/allocation/${stub.ID}`), reply: { body: alloc } },
    ]);
    // As Nomad's docker driver names and labels them.
    const tasks = Object.keys(alloc.TaskStates) as string[];
    for (const task of tasks) {
      await docker("run", "-d", "--name", `${task}-${stub.ID}`, "--label", `com.hashicorp.nomad.alloc_id=${stub.ID}`, `${app}:1.27.3`);
    }
    await docker("run", "-d", "--name", "not-nomad", `${app}:1.27.2`);

    const node = await readNodeContainers(inject("dockerHost"));
    expect([...node.keys()].sort()).toEqual(tasks.map((t) => `${stub.ID}/${t}`).sort());
    expect([...node.values()][0]).toMatchObject({ image: `${app}:1.27.3`, repoDigests: [`${app}@${digests["1.27.3"]}`], os: "linux", arch: "amd64" });

    const obs = await collectNomad({ addr: nomad.url, dockerSocket: inject("dockerHost") });
    expect(obs.workloads.length).toBeGreaterThan(0);
    for (const w of obs.workloads) expect(w).toMatchObject({ image: `${app}:1.27.3`, digest: digests["1.27.3"], platform: "linux/amd64" });
  });
});
