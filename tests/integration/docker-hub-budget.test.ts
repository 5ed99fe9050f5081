// The pull budget against a fake Docker Hub (the loopback registry behind a
// proxy that allows 10 pulls an hour to an address, 100 to a signed-in user,
// and answers 429 past them): 200 repositories, 40 on moving tags with
// multi-platform images, checked by two scheduler processes sharing one
// database. The first cycle lists every repository and resolves every moving
// tag; labels follow over the next hours, only where they are the release
// source, never drawing a 429 and never leaving fewer than 2 pulls free.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { AgentReport } from "@/lib/domain/agent-report";
import { createEolClient } from "@/lib/adapters/eol";
import { createForgeClients } from "@/lib/adapters/forges";
import { createRegistryClient } from "@/lib/adapters/registries/client";
import { loadConfig, type Config } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import type { RequestCtx } from "@/lib/services/context";
import { createAgentKey } from "@/lib/services/agent-keys/create";
import { recordAgentReport } from "@/lib/services/agent-reports/record";
import { updateService } from "@/lib/services/services/update";
import { setupWorkspace } from "@/lib/services/workspaces/setup";
import type { CheckDeps } from "@/lib/services/upstream/check-repository";
import { leaseDueLabels } from "@/lib/db/queries/upstream/lease-due-labels";
import { readDueSourceLabels } from "@/lib/services/upstream/read-source-labels";
import { registryCredentialsFor } from "@/lib/services/upstream/registry-credentials";
import { getSourceLabelStatus } from "@/lib/services/upstream/source-label-status";
import { listServerRegistries } from "@/lib/services/upstream/list-server-registries";
import { runCheckTick } from "@/lib/services/upstream/run-check-tick";
import { startHubProxy, type HubProxy } from "../support/docker-hub-proxy";
import { registryPusher, type PushedImage } from "../support/registry";
import { createScratchDb, type ScratchDb } from "../support/scratch-db";
import { recordSecret } from "../support/secrets";

const MIN = 60_000;
const HOUR = 60 * MIN;
const REPOS = 200;
const MOVING_FROM = 160; // 160 single-platform repositories on exact tags, 40 multi-platform ones on `latest`
const PLATFORM_DIGEST_FROM = 194; // six of those report only a platform digest: resolving one costs pulls
const PREFIX = `hub-${randomUUID().slice(0, 6)}`;
const HUB_USER = { username: "driftwatch-ci", token: `dckr_pat_${randomUUID().replace(/-/g, "")}` };
const name = (i: number) => `${PREFIX}/app-${i}`;
const source = (i: number) => `https://github.com/acme/app-${i}`;
/** The source is known otherwise (the policy names the forge) for most: no label read for those. */
const hasPolicyForge = (i: number) => (i < MOVING_FROM ? i < 120 : i < 190);

let scratch: ScratchDb;
let db: Db;
let clock = Date.UTC(2026, 10, 27, 8, 0, 0);
const images: PushedImage[] = [];

type World = { proxy: HubProxy; config: Config; processes: CheckDeps[]; ctx: RequestCtx; start: number };

async function makeWorld(label: string, opts: { signedIn: boolean }): Promise<World> {
  const proxy = await startHubProxy({ upstream: inject("registryUrl"), now: () => clock, user: HUB_USER });
  const env = opts.signedIn ? { DRIFTWATCH_DOCKERHUB_USERNAME: HUB_USER.username, DRIFTWATCH_DOCKERHUB_TOKEN: HUB_USER.token } : {};
  const config = loadConfig(env, {
    serverRegistries: [proxy.host], insecureRegistries: [proxy.host], dockerHubHosts: [proxy.host], eolEnabled: false, githubApiUrl: "http://127.0.0.1:9",
  });
  // Two scheduler processes: a client (and its in-memory state) each, one database.
  const processes: CheckDeps[] = [0, 1].map(() => ({
    db, config,
    // The simulated clock moves during the test: each use case reads the instant it runs at.
    get now() { return new Date(clock); },
    clients: {
      registry: createRegistryClient({ insecureHosts: [proxy.host], credentials: registryCredentialsFor(config), now: () => clock }),
      forges: createForgeClients({ githubApiUrl: "http://127.0.0.1:9" }),
      eol: createEolClient({ apiUrl: "http://127.0.0.1:9/api/v1", enabled: false }),
    },
  }));
  const { workspaceId } = await setupWorkspace({ ctx: { db }, input: { workspace: `hub-${label}`, email: `${label}@example.test`, password: `pw-${randomUUID()}` } });
  // The simulated clock moves during the test: each use case reads the instant it runs at.
  const ctx: RequestCtx = { db, config, get now() { return new Date(clock); }, actor: { kind: "system", workspaceId } };
  const key = await createAgentKey({ ctx, input: { name: "agent" } });
  const agent: RequestCtx = { ...ctx, actor: { kind: "agent", agentKeyId: key.id, workspaceId, name: "agent" } };
  const workloads: AgentReport["workloads"] = images.map((img, i) => {
    const moving = i >= MOVING_FROM;
    const platformOnly = i >= PLATFORM_DIGEST_FROM;
    return {
      service: `app-${i}`, container: "app", main: true, image: `${proxy.host}/${name(i)}:${moving ? "latest" : "1.0.0"}`,
      digest: platformOnly ? null : img.digest,
      platform_digest: platformOnly ? img.platforms.find((p) => p.platform === "linux/amd64")!.digest : null,
      platform: "linux/amd64", since: "2026-11-01T00:00:00Z",
    };
  });
  await recordAgentReport({ ctx: agent, input: { environment: "production", target: { name: "docker@hub", kind: "docker" }, observed_at: new Date(clock).toISOString(), workloads, registry_results: [] } });
  for (let i = 0; i < REPOS; i++) if (hasPolicyForge(i)) await updateService({ ctx, input: { name: `app-${i}`, policy: { github: `acme/app-${i}` } } });
  return { proxy, config, processes, ctx, start: clock };
}

const repoRows = (w: World) => db.upstreamRepository.findMany({ where: { host: w.proxy.host }, orderBy: { key: "asc" } });
const indexOf = (key: string) => Number(/app-(\d+)$/.exec(key)![1]);

/** Both processes tick at once, every ten minutes of the test's clock, until every needed label is read. */
async function runUntilLabelsRead(w: World, maxHours: number): Promise<number> {
  for (let step = 1; step <= maxHours * 6; step++) {
    clock += 10 * MIN;
    await Promise.all(w.processes.map((deps) => runCheckTick(deps, { limit: 500, concurrency: 8 })));
    const unread = await db.upstreamRepository.count({ where: { host: w.proxy.host, labelNeeded: true, labelCheckedAt: null } });
    if (unread === 0) return (clock - w.start) / HOUR;
  }
  return Infinity;
}

async function firstCycle(w: World) {
  await Promise.all(w.processes.map((deps) => runCheckTick(deps, { limit: 500, concurrency: 8 })));
  const rows = await repoRows(w);
  expect(rows).toHaveLength(REPOS);
  expect(rows.filter((r) => r.checkedAt === null || r.tagsFingerprint === null || r.lastError !== null).map((r) => r.key)).toEqual([]);
  expect(w.proxy.requests.get("GET tags/list")).toBeGreaterThanOrEqual(REPOS);
  // Every moving tag resolved, six of them by platform digest (a pull each).
  const resolved = await db.digestResolution.findMany({ where: { repository: { host: w.proxy.host }, tag: { not: null } } });
  expect(resolved).toHaveLength(REPOS - MOVING_FROM);
  expect(new Set(resolved.map((r) => r.tag))).toEqual(new Set(["1.1.0"]));
  // The label is needed only where no policy names the forge.
  expect(rows.filter((r) => r.labelNeeded).map((r) => indexOf(r.key)).sort((a, b) => a - b)).toEqual(
    Array.from({ length: REPOS }, (_, i) => i).filter((i) => !hasPolicyForge(i)),
  );
}

async function labelsRead(w: World) {
  const rows = await repoRows(w);
  for (const r of rows) {
    const i = indexOf(r.key);
    if (hasPolicyForge(i)) expect({ key: r.key, checked: r.labelCheckedAt }).toEqual({ key: r.key, checked: null });
    else expect({ key: r.key, label: r.sourceLabel, error: r.labelError }).toEqual({ key: r.key, label: source(i), error: null });
  }
}

beforeAll(async () => {
  scratch = await createScratchDb("hub_budget");
  db = scratch.db;
  recordSecret("Docker Hub token", HUB_USER.token);
  const pusher = registryPusher(inject("registryUrl"));
  const queue = Array.from({ length: REPOS }, (_, i) => i);
  await Promise.all(Array.from({ length: 8 }, async () => {
    for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
      const labels = { "org.opencontainers.image.source": source(i) };
      if (i < MOVING_FROM) {
        images[i] = await pusher.pushImage(name(i), "1.0.0", { labels });
      } else {
        await pusher.pushImage(name(i), "1.0.0", { labels, platforms: ["linux/amd64", "linux/arm64"] });
        images[i] = await pusher.pushImage(name(i), "1.1.0", { labels, platforms: ["linux/amd64", "linux/arm64"] });
        await pusher.tagExisting(name(i), "latest", "1.1.0");
      }
    }
  }));
}, 300_000);

afterAll(async () => {
  await scratch?.drop();
});

describe("pull budget on a fake Docker Hub", () => {
  let anon: World;

  it("anonymous (10 pulls an hour): resolves every moving tag at once, reads labels over the next hours, never a 429", async () => {
    anon = await makeWorld("anon", { signedIn: false });
    await firstCycle(anon);
    const hours = await runUntilLabelsRead(anon, 30);
    await labelsRead(anon);
    const perHour = anon.proxy.pullsPerHour(anon.start);
    console.log(`anonymous: labels read within ${hours} h; pulls per hour ${JSON.stringify(perHour)}; most in any sliding hour ${anon.proxy.maxPullsInWindow()}; refused ${anon.proxy.refused.length}; requests ${JSON.stringify(Object.fromEntries(anon.proxy.requests))}`);
    expect(anon.proxy.refused).toEqual([]);
    expect(anon.proxy.maxPullsInWindow()).toBeLessThanOrEqual(10 - 2);
    // 40 single-platform labels (a pull each) and 10 multi-platform ones (two each), plus six resolutions.
    expect(anon.proxy.pulls).toHaveLength(40 + 2 * 10 + 6);
    expect(hours).toBeLessThan(24);

    // Settings and /metrics: the host with its budget, and when it refills.
    const registries = await listServerRegistries({ ctx: anon.ctx });
    const hub = registries.items.find((r) => r.host === anon.proxy.host);
    expect(hub).toMatchObject({ rationed: true, name: "Docker Hub", signed_in: false, limit: 10, window_seconds: 3600 });
    expect(hub!.remaining).toBe(10 - anon.proxy.pulls.filter((p) => p.at > clock - HOUR).length);
  }, 600_000);

  it("a failing label read keeps the last good label and is retried within the hour", async () => {
    const deps = anon.processes[0]!;
    const row = (await repoRows(anon)).find((r) => r.labelNeeded)!;
    await db.upstreamRepository.update({ where: { id: row.id }, data: { labelDueAt: new Date(clock) } });
    await db.upstreamRepository.updateMany({ where: { host: anon.proxy.host, id: { not: row.id } }, data: { labelDueAt: new Date(clock + 30 * 24 * HOUR) } });
    clock += 2 * HOUR; // a full budget
    anon.proxy.setFail(({ method, path }) => (method === "GET" && path.includes("/manifests/") ? 500 : null));
    expect(await readDueSourceLabels(deps)).toMatchObject({ failed: 1 });
    const failed = await db.upstreamRepository.findUniqueOrThrow({ where: { id: row.id } });
    expect(failed).toMatchObject({ sourceLabel: row.sourceLabel, labelFailures: 1, labelWaitingQuota: false });
    expect(failed.labelError).toMatch(/500/);
    expect(failed.labelDueAt!.getTime() - clock).toBe(15 * MIN);
    anon.proxy.setFail(null);
    clock += 15 * MIN;
    expect(await readDueSourceLabels(deps)).toMatchObject({ read: 1 });
    expect(await db.upstreamRepository.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({ sourceLabel: row.sourceLabel, labelFailures: 0, labelError: null });
  }, 120_000);

  it("waits for the host's own count when someone else pulls from the same address, and says until when", async () => {
    const deps = anon.processes[0]!;
    const row = (await repoRows(anon)).find((r) => r.labelNeeded)!;
    clock += 2 * HOUR;
    await db.upstreamRepository.update({ where: { id: row.id }, data: { labelDueAt: new Date(clock) } });
    anon.proxy.pullAs(`ip:127.0.0.1`, 7); // the user's own docker pulls: 3 left, the reserve and one more
    const before = anon.proxy.pulls.length;
    expect(await readDueSourceLabels(deps)).toMatchObject({ waiting: 1 });
    expect(anon.proxy.pulls.length).toBe(before); // a HEAD only
    const status = await getSourceLabelStatus({ ctx: anon.ctx, repository: row.key });
    expect(status).toMatchObject({ state: "waiting_quota", host_name: "Docker Hub" });
    expect(new Date(status!.next_read_at!).getTime()).toBe(clock + HOUR + 1);
  }, 120_000);

  it("signed in (100 pulls an hour): the same, sooner, never a 429", async () => {
    const signed = await makeWorld("signed", { signedIn: true });
    await firstCycle(signed);
    const hours = await runUntilLabelsRead(signed, 10);
    await labelsRead(signed);
    const perHour = signed.proxy.pullsPerHour(signed.start);
    console.log(`signed in: labels read within ${hours} h; pulls per hour ${JSON.stringify(perHour)}; most in any sliding hour ${signed.proxy.maxPullsInWindow()}; refused ${signed.proxy.refused.length}`);
    expect(signed.proxy.refused).toEqual([]);
    expect(new Set(signed.proxy.pulls.map((p) => p.identity))).toEqual(new Set([`user:${HUB_USER.username}`]));
    expect(signed.proxy.maxPullsInWindow()).toBeLessThanOrEqual(100 - 2);
    expect(hours).toBeLessThanOrEqual(3);
    const hub = (await listServerRegistries({ ctx: signed.ctx })).items.find((r) => r.host === signed.proxy.host);
    expect(hub).toMatchObject({ rationed: true, signed_in: true, limit: 100 });
  }, 600_000);

  it("leaves a host's labels while any process checks it: the check's digest resolutions spend the pulls first", async () => {
    const held = await makeWorld("held", { signedIn: false });
    await runCheckTick(held.processes[0]!, { limit: 500, concurrency: 8 });
    const dueOnHost = async () => (await leaseDueLabels(db, new Date(clock), 500)).filter((l) => l.host === held.proxy.host);
    // The other process has a check of one repository on the host in flight.
    const [checking] = await repoRows(held);
    await db.upstreamRepository.update({ where: { id: checking!.id }, data: { leasedUntil: new Date(clock + 5 * MIN) } });
    expect(await dueOnHost()).toEqual([]);
    await db.upstreamRepository.update({ where: { id: checking!.id }, data: { leasedUntil: null } });
    expect((await dueOnHost()).length).toBeGreaterThan(0);
  }, 600_000);
});
