// Docker Hub's pull budget when it runs out (issue #33, points 7–10), against
// the fake Docker Hub (tests/support/docker-hub-proxy.ts) with Hub's own
// window (`ratelimit-limit: 10;w=21600` anonymous, 100 signed in), counting
// manifest GETs per window. Six repositories run an older `latest` on two
// platforms (amd64 and arm64): resolving one costs two pulls (1.1.0, then
// 1.0.0), the other platform none once those are stored. Two scheduler
// processes share one database, as two servers would.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { AgentReport } from "@/lib/domain/agent-report";
import { HostWarnings } from "@/lib/domain/upstream";
import { createEolClient } from "@/lib/adapters/eol";
import { createForgeClients } from "@/lib/adapters/forges";
import { createRegistryClient } from "@/lib/adapters/registries/client";
import { loadConfig, type Config } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { checkWarningLines } from "@/lib/server/check-warnings";
import type { RequestCtx } from "@/lib/services/context";
import { createAgentKey } from "@/lib/services/agent-keys/create";
import { recordAgentReport } from "@/lib/services/agent-reports/record";
import { renderMetrics } from "@/lib/services/insights/metrics";
import { getServiceOrThrow } from "@/lib/services/services/get";
import { updateService } from "@/lib/services/services/update";
import { setupWorkspace } from "@/lib/services/workspaces/setup";
import type { CheckDeps } from "@/lib/services/upstream/check-repository";
import { listServerRegistries } from "@/lib/services/upstream/list-server-registries";
import { registryCredentialsFor, registryMirrorFor } from "@/lib/services/upstream/registry-credentials";
import { runCheckTick } from "@/lib/services/upstream/run-check-tick";
import { startHubProxy, type HubProxy } from "../support/docker-hub-proxy";
import { registryPusher, type PushedImage } from "../support/registry";
import { createScratchDb, type ScratchDb } from "../support/scratch-db";
import { recordSecret } from "../support/secrets";

const MIN = 60_000;
const WINDOW_S = 21_600; // Hub's `w=21600`
const REPOS = 6;
const PREFIX = `quota-${randomUUID().slice(0, 6)}`;
const HUB_USER = { username: "driftwatch-ci", token: `dckr_pat_${randomUUID().replace(/-/g, "")}` };
const name = (i: number) => `${PREFIX}/app-${i}`;

let scratch: ScratchDb;
let db: Db;
let clock = Date.UTC(2026, 10, 28, 8, 0, 0);
/** Each repository's 1.0.0: what runs (an older `latest`). */
const running: PushedImage[] = [];
const proxies: HubProxy[] = [];

const hubProxy = async (o: Partial<Parameters<typeof startHubProxy>[0]> = {}) => {
  const p = await startHubProxy({ upstream: inject("registryUrl"), now: () => clock, user: HUB_USER, windowSeconds: WINDOW_S, anonymousLimit: 10, userLimit: 100, ...o });
  proxies.push(p);
  return p;
};

type Process = { deps: CheckDeps; warnings: HostWarnings; logged: string[] };

/** Two scheduler processes with this environment, as after a (re)start: fresh clients, the same database. */
function startProcesses(hub: HubProxy, env: Record<string, string>, mirror?: HubProxy): { config: Config; processes: Process[] } {
  const config = loadConfig({ ...env, ...(mirror ? { DRIFTWATCH_DOCKERHUB_MIRROR: mirror.url, DRIFTWATCH_INSECURE_REGISTRIES: mirror.host } : {}) }, {
    serverRegistries: [hub.host], insecureRegistries: [hub.host, ...(mirror ? [mirror.host] : [])], dockerHubHosts: [hub.host], eolEnabled: false, githubApiUrl: "http://127.0.0.1:9",
  });
  const processes = [0, 1].map(() => ({
    deps: {
      db, config,
      // The simulated clock moves during the test: each use case reads the instant it runs at.
      get now() { return new Date(clock); },
      clients: {
        registry: createRegistryClient({ insecureHosts: config.insecureRegistries, credentials: registryCredentialsFor(config), mirrorOf: registryMirrorFor(config), now: () => clock }),
        forges: createForgeClients({ githubApiUrl: "http://127.0.0.1:9" }),
        eol: createEolClient({ apiUrl: "http://127.0.0.1:9/api/v1", enabled: false }),
      },
    } satisfies CheckDeps,
    warnings: new HostWarnings(),
    logged: [] as string[],
  }));
  return { config, processes };
}

/** Both processes tick at once; each logs what the scheduler would. */
async function tick(processes: Process[]) {
  await Promise.all(processes.map(async (p) => {
    const r = await runCheckTick(p.deps, { limit: 100, concurrency: 8 });
    p.logged.push(...checkWarningLines(r.outcomes, p.warnings, new Date(clock)));
  }));
}

/** A workspace whose agents run each repository's 1.0.0 on amd64 and on arm64, reported by platform digest only. */
async function workspace(label: string, hub: HubProxy, config: Config): Promise<RequestCtx> {
  const { workspaceId } = await setupWorkspace({ ctx: { db }, input: { workspace: `quota-${label}`, email: `${label}@example.test`, password: `pw-${randomUUID()}` } });
  const ctx: RequestCtx = { db, config, get now() { return new Date(clock); }, actor: { kind: "system", workspaceId } };
  const key = await createAgentKey({ ctx, input: { name: "agent" } });
  const agent: RequestCtx = { ...ctx, actor: { kind: "agent", agentKeyId: key.id, workspaceId, name: "agent" } };
  for (const platform of ["linux/amd64", "linux/arm64"]) {
    const workloads: AgentReport["workloads"] = running.map((img, i) => ({
      service: `app-${i}`, container: "app", main: true, image: `${hub.host}/${name(i)}:latest`,
      digest: null, platform_digest: img.platforms.find((p) => p.platform === platform)!.digest, platform, since: "2026-11-01T00:00:00Z",
    }));
    await recordAgentReport({ ctx: agent, input: { environment: "production", target: { name: `docker@${platform.split("/")[1]}`, kind: "docker" }, observed_at: new Date(clock).toISOString(), workloads, registry_results: [] } });
  }
  // The policies name the forge: no source-label reads, so every pull counted here is a digest lookup's.
  for (let i = 0; i < REPOS; i++) await updateService({ ctx, input: { name: `app-${i}`, policy: { github: `acme/app-${i}` } } });
  return ctx;
}

const resolutions = (hub: HubProxy) => db.digestResolution.findMany({ where: { repository: { host: hub.host } } });
const resolvedCount = async (hub: HubProxy) => (await resolutions(hub)).filter((r) => r.tag === "1.0.0").length;
const hubOf = async (ctx: RequestCtx, hub: HubProxy) => (await listServerRegistries({ ctx })).items.find((r) => r.host === hub.host)!;

beforeAll(async () => {
  scratch = await createScratchDb("hub_quota");
  db = scratch.db;
  recordSecret("Docker Hub token", HUB_USER.token);
  const pusher = registryPusher(inject("registryUrl"));
  for (let i = 0; i < REPOS; i++) {
    running[i] = await pusher.pushImage(name(i), "1.0.0", { platforms: ["linux/amd64", "linux/arm64"] });
    await pusher.pushImage(name(i), "1.1.0", { platforms: ["linux/amd64", "linux/arm64"] });
    await pusher.tagExisting(name(i), "latest", "1.1.0");
  }
}, 300_000);

afterAll(async () => {
  for (const p of proxies) await p.close();
  await scratch?.drop();
});

describe("Docker Hub's pull budget runs out", () => {
  it("keeps what each pull taught, says that the tags wait and until when, logs it once, and reads them when the window refills (8, 9)", async () => {
    const hub = await hubProxy();
    const { config, processes } = startProcesses(hub, {});
    const ctx = await workspace("anon", hub, config);
    const start = clock;

    await tick(processes);
    // Eight pulls spent (two kept for the user's own), none refused, none thrown away.
    expect(hub.refused).toEqual([]);
    expect(hub.pullsPerWindow(start)).toEqual([8]);
    expect(hub.pulledTwice()).toEqual({});
    expect(await resolvedCount(hub)).toBeLessThan(2 * REPOS);
    // Every pull's lesson is stored: eight manifests' platform digests.
    expect(await db.upstreamTag.count({ where: { repository: { host: hub.host }, NOT: { platformDigests: { isEmpty: true } } } })).toBe(8);

    // The moving tags say they wait, and when they are read: when the window refills.
    const waiting = (await resolutions(hub)).filter((r) => r.tag === null);
    expect(waiting.length).toBeGreaterThan(0);
    expect(waiting.every((r) => r.waitingQuota && r.retryAt!.getTime() === start + WINDOW_S * 1000 + 1)).toBe(true);
    const waitingService = `app-${/app-(\d+)$/.exec((await db.upstreamRepository.findUniqueOrThrow({ where: { id: waiting[0]!.repositoryId } })).key)![1]}`;
    const shown = await getServiceOrThrow({ ctx, input: { name: waitingService } });
    expect(shown.upstream).toMatchObject({ state: "ok", quota_wait: { registry: "Docker Hub", host: hub.host, until: new Date(start + WINDOW_S * 1000 + 1).toISOString() } });
    // One warning (per process), not one per tag.
    const lines = processes.flatMap((p) => p.logged);
    expect(lines.length).toBeGreaterThanOrEqual(1);
    for (const p of processes) expect(p.logged.length).toBeLessThanOrEqual(1);
    expect(lines[0]).toMatch(/^Docker Hub pull quota: \d+ moving-tag lookups? in \d+ repositor(y|ies) held back, no pull to spare/);

    // Hourly checks in the window pull nothing; the first tick after it reads the rest, each manifest once.
    for (let t = 0; t < 6 * 6 + 1; t++) {
      clock += 10 * MIN;
      await tick(processes);
    }
    console.log(`anonymous: pulls per ${WINDOW_S / 3600} h window ${JSON.stringify(hub.pullsPerWindow(start))}; requests ${JSON.stringify(Object.fromEntries(hub.requests))}`);
    expect(hub.refused).toEqual([]);
    expect(hub.pullsPerWindow(start)).toEqual([8, 4]);
    expect(hub.pulledTwice()).toEqual({});
    expect(await resolvedCount(hub)).toBe(2 * REPOS);
    expect((await getServiceOrThrow({ ctx, input: { name: waitingService } })).upstream.quota_wait).toBeNull();
    expect(processes.flatMap((p) => p.logged)).toHaveLength(lines.length);
  }, 300_000);

  it("signing in is a new budget at once: what waited is read in the same window, and the metrics show the signed-in budget (7)", async () => {
    const hub = await hubProxy();
    const anonymous = startProcesses(hub, {});
    const ctx = await workspace("signin", hub, anonymous.config);
    const start = clock;
    await tick(anonymous.processes);
    hub.pullAs("ip:127.0.0.1", 2); // the user's own pulls: 0 left
    clock += MIN;
    await tick(anonymous.processes);
    expect(hub.pullsPerWindow(start)).toEqual([10]);
    // Nothing more to spend: the last two are the reserve (and the user's own pulls took them).
    expect(await hubOf(ctx, hub)).toMatchObject({ signed_in: false, limit: 10, remaining: 2 });
    const before = await resolvedCount(hub);
    expect(before).toBeLessThan(2 * REPOS);

    // Restarted with a Docker Hub sign-in, a few minutes later, well inside the anonymous window.
    const signed = startProcesses(hub, { DRIFTWATCH_DOCKERHUB_USERNAME: HUB_USER.username, DRIFTWATCH_DOCKERHUB_TOKEN: HUB_USER.token });
    const signedCtx: RequestCtx = { ...ctx, config: signed.config };
    clock += 5 * MIN;
    await tick(signed.processes);
    const userPulls = hub.pulls.filter((p) => p.identity === `user:${HUB_USER.username}`);
    console.log(`sign-in: pulls per window ${JSON.stringify(hub.pullsPerWindow(start))}, ${userPulls.length} signed in`);
    expect(await resolvedCount(hub)).toBe(2 * REPOS);
    expect(userPulls.length).toBe(12 - 8);
    expect(hub.pullsPerWindow(start)).toEqual([10 + 4]);
    expect(hub.refused).toEqual([]);
    expect(hub.pulledTwice()).toEqual({});
    expect(await hubOf(signedCtx, hub)).toMatchObject({ signed_in: true, limit: 100, remaining: 100 - 4, pulls_in_window: 4 });
    const metrics = (await renderMetrics({ ctx: signedCtx })).text;
    expect(metrics).toContain(`driftwatch_registry_pull_limit{host="${hub.host}"} 100`);
    expect(metrics).toContain(`driftwatch_registry_pull_budget_remaining{host="${hub.host}"} 96`);
  }, 300_000);

  it("a mirror that sends no rate-limit headers has no budget: every tag is read at once, nothing from Docker Hub (10)", async () => {
    const hub = await hubProxy();
    const mirror = await hubProxy({ auth: false, limits: false });
    hub.pullAs("ip:127.0.0.1", 10); // Docker Hub itself has nothing left for this address
    const { config, processes } = startProcesses(hub, { DRIFTWATCH_DOCKERHUB_USERNAME: HUB_USER.username, DRIFTWATCH_DOCKERHUB_TOKEN: HUB_USER.token }, mirror);
    const ctx = await workspace("mirror", hub, config);
    const start = clock;
    await tick(processes);
    console.log(`mirror without headers: pulls per window ${JSON.stringify(mirror.pullsPerWindow(start))}; Docker Hub requests ${JSON.stringify(Object.fromEntries(hub.requests))}`);
    expect(await resolvedCount(hub)).toBe(2 * REPOS);
    expect(mirror.pullsPerWindow(start)).toEqual([12]);
    expect(mirror.pulledTwice()).toEqual({});
    expect(hub.requests.size).toBe(0);
    expect(mirror.requests.get("GET token")).toBeUndefined();
    expect(await hubOf(ctx, hub)).toMatchObject({ rationed: false, mirror: mirror.url, limit: null });
    expect(processes.flatMap((p) => p.logged)).toEqual([]);
  }, 300_000);

  it("a mirror that passes Docker Hub's headers on is budgeted by them (10)", async () => {
    const hub = await hubProxy();
    const mirror = await hubProxy({ auth: false });
    const { config, processes } = startProcesses(hub, {}, mirror);
    const ctx = await workspace("mirror-limits", hub, config);
    const start = clock;
    await tick(processes);
    clock += MIN;
    await tick(processes);
    console.log(`mirror with headers: pulls per window ${JSON.stringify(mirror.pullsPerWindow(start))}; refused ${mirror.refused.length}`);
    expect(hub.requests.size).toBe(0);
    // A free HEAD reads the mirror's count before the first pull: the reserve stays free, and what waits says so.
    expect(mirror.refused).toEqual([]);
    expect(mirror.pullsPerWindow(start)).toEqual([8]);
    expect(await resolvedCount(hub)).toBeLessThan(2 * REPOS);
    expect((await resolutions(hub)).some((r) => r.waitingQuota)).toBe(true);
    expect(mirror.pulledTwice()).toEqual({});
    expect(await hubOf(ctx, hub)).toMatchObject({ rationed: true, mirror: mirror.url, limit: 10 });
  }, 300_000);
});
