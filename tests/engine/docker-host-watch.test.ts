// The server watching its own Docker host, against the real engine (Swarm mode): an admin turns it on
// through the service, the watch loop collects the engine every interval with the agent's collector and
// records through the agent's intake. Containers and a Swarm service appear with their digests; a removed
// container's row closes on the next run; an engine that stops answering shows its error and loses nothing.
import net from "node:net";
import path from "node:path";
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { createDockerHost, startDockerHostWatch, type DockerHostWatchLoop } from "@/lib/server/docker-host";
import type { RequestCtx } from "@/lib/services/context";
import { listDockerHostWatches } from "@/lib/services/docker-host/list";
import type { DockerHost } from "@/lib/services/docker-host/ports";
import { watchDockerHost } from "@/lib/services/docker-host/watch";
import { api, makeWorkspace, type TestWorkspace } from "../support/api";
import { dockerCli, pullBack, pushTestImage, waitUntil, type DockerCli } from "../support/docker-engine";

const ENV = "local-host";
let ws: TestWorkspace;
let docker: DockerCli;
let app: string;
let host: DockerHost;
let loop: DockerHostWatchLoop;
let proxy: SocketProxy;
let proxyPath: string;
const digests: Record<string, string> = {};

type HistoryRow = { service: string; environment: string; target: string; tag: string; digest: string | null; from: string; to: string | null };
const history = async (): Promise<HistoryRow[]> => (await api(ws.viewer).get(`/api/v1/history?environment=${ENV}&limit=200`)).body.items;
const row = async (service: string) => (await history()).find((r) => r.service === service && r.to === null);
const admin = (): RequestCtx => ({ ...ws.ctx, now: new Date(), actor: { kind: "user", userId: "00000000-0000-4000-8000-000000000002", email: "admin@example.test", workspaceId: ws.id, role: "admin" } });
const watchState = async () => (await listDockerHostWatches({ ctx: { ...admin(), now: new Date() } })).items[0];
const started = async (container: string) => new Date(await docker("inspect", "-f", "{{.State.StartedAt}}", container)).toISOString();

/** A unix socket in front of the engine's: closing it makes the engine unreachable while it keeps running. */
type SocketProxy = { close: () => Promise<void> };
async function startSocketProxy(listenPath: string, enginePath: string): Promise<SocketProxy> {
  rmSync(listenPath, { force: true });
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const engine = net.connect(enginePath);
    const done = () => {
      client.destroy();
      engine.destroy();
      open.delete(client);
      open.delete(engine);
    };
    for (const s of [client, engine]) {
      open.add(s);
      s.on("error", done).on("close", done);
    }
    client.pipe(engine).pipe(client);
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(listenPath, resolve));
  return {
    close: async () => {
      for (const s of open) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

beforeAll(async () => {
  ws = await makeWorkspace("engine-host");
  docker = dockerCli({ dir: inject("dockerDir"), host: inject("dockerHost") });
  app = `${inject("registryHost")}/host/app`;
  digests["1.27.2"] = await pushTestImage(docker, `${app}:1.27.2`, "1.27.2");
  digests["1.27.3"] = await pushTestImage(docker, `${app}:1.27.3`, "1.27.3");
  await pullBack(docker, [`${app}:1.27.2`, `${app}:1.27.3`]);
  proxyPath = path.join(inject("dockerDir"), "watched.sock");
  proxy = await startSocketProxy(proxyPath, inject("dockerHost").replace(/^unix:\/\//, ""));
  host = createDockerHost({ host: `unix://${proxyPath}`, tlsVerify: false, certPath: undefined });
  loop = startDockerHostWatch({ databaseUrl: inject("databaseUrl"), config: loadConfig({}), host, intervalMs: 1_500 });
});

afterAll(async () => {
  await loop?.stop();
  await proxy?.close().catch(() => undefined);
  await docker?.("service", "rm", "hw_queue").catch(() => "");
  await docker?.("rm", "-f", "hw-web-1", "hw-api-1").catch(() => "");
});

describe("the server watching its own Docker host", () => {
  it("probes the engine: its name and Swarm role", async () => {
    const probe = await host.probe({ maxAgeMs: 0 });
    expect(probe).toMatchObject({ readable: true, address: `unix://${proxyPath}`, engine: { name: await docker("info", "-f", "{{.Name}}"), swarmManager: true } });
  });

  it("reports containers and Swarm services each interval with their digests, through the agent's intake", async () => {
    const compose = (service: string) => ["--label", "com.docker.compose.project=hw", "--label", `com.docker.compose.service=${service}`];
    await docker("run", "-d", "--name", "hw-web-1", ...compose("hw-web"), `${app}:1.27.2`);
    await docker("run", "-d", "--name", "hw-api-1", ...compose("hw-api"), `${app}:1.27.3`);
    await docker(
      "service", "create", "-d", "--name", "hw_queue", "--label", "com.docker.stack.namespace=hw", "--container-label", "com.docker.stack.namespace=hw",
      "--stop-grace-period", "0s", `${app}:1.27.3`,
    );
    await waitUntil("the queue task", async () => (await docker("service", "ps", "hw_queue", "--filter", "desired-state=running", "--format", "{{.CurrentState}}")).startsWith("Running"));

    const watched = await watchDockerHost({ ctx: admin(), input: { environment: ENV }, host });
    const engineName = await docker("info", "-f", "{{.Name}}");
    expect(watched).toMatchObject({ target: `docker@${engineName}`, environment: ENV, swarm: true, environment_created: true });
    await waitUntil("the first report", async () => (await row("hw-web")) !== undefined && (await row("hw-api")) !== undefined && (await row("queue")) !== undefined, 30_000);

    expect(await row("hw-web")).toMatchObject({ target: `docker@${engineName}`, tag: "1.27.2", digest: digests["1.27.2"], from: await started("hw-web-1") });
    expect(await row("hw-api")).toMatchObject({ target: `docker@${engineName}`, tag: "1.27.3", digest: digests["1.27.3"], from: await started("hw-api-1") });
    expect(await row("queue")).toMatchObject({ target: `swarm@${engineName}`, tag: "1.27.3", digest: digests["1.27.3"] });
    const targets = (await api(ws.viewer).get("/api/v1/targets")).body.items as { name: string; environment: string }[];
    expect(targets.filter((t) => t.environment === ENV).map((t) => t.name).sort()).toEqual([`docker@${engineName}`, `swarm@${engineName}`]);
    const state = await watchState();
    expect(state).toMatchObject({ target: `docker@${engineName}`, environment: ENV, state: "reporting", last_error: null });
    expect(state?.workloads).toBe((await history()).filter((r) => r.to === null).length);
  });

  it("closes a removed container's row at the next run and keeps the others open", async () => {
    const before = await history();
    await docker("rm", "-f", "hw-api-1");
    await waitUntil("hw-api's row to close", async () => (await row("hw-api")) === undefined, 30_000);
    const rows = await history();
    expect(rows.find((r) => r.service === "hw-api")?.to).not.toBeNull();
    expect(await row("hw-web")).toEqual(before.find((r) => r.service === "hw-web"));
    expect(await row("queue")).toEqual(before.find((r) => r.service === "queue"));
  });

  it("shows the error when the engine stops answering, loses nothing, and recovers", async () => {
    const before = await history();
    const workloads = (await watchState())?.workloads;
    await proxy.close();
    await waitUntil("the watch to fail", async () => (await watchState())?.state === "failing", 30_000);
    const failing = await watchState();
    expect(failing?.last_error).toMatch(new RegExp(`^docker: Cannot reach Docker Engine at unix://${proxyPath}`));
    // The last good report stays beside the error, with its workload count.
    expect(new Date(failing!.last_report_at!).getTime()).toBeLessThan(new Date(failing!.last_run_at!).getTime());
    expect(failing?.workloads).toBe(workloads);
    expect(await history()).toEqual(before);

    proxy = await startSocketProxy(proxyPath, inject("dockerHost").replace(/^unix:\/\//, ""));
    await waitUntil("the watch to recover", async () => (await watchState())?.state === "reporting", 30_000);
    expect((await watchState())?.last_error).toBeNull();
    expect(await history()).toEqual(before);
  });
});
