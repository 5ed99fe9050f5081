// The policy's minimum release age, end to end on a real registry on loopback
// and a replay of GitHub's releases API: a release younger than the minimum
// opens no upstream drift and shows as waiting; once the clock passes its age
// (counted from the forge's publication, else from when Driftwatch first saw
// the tag) it alerts. No manifest is pulled for it.
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createEolClient } from "@/lib/adapters/eol";
import { createForgeClients } from "@/lib/adapters/forges";
import { createRegistryClient } from "@/lib/adapters/registries/client";
import { loadConfig, type Config } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { createAgentKey } from "@/lib/services/agent-keys/create";
import { recordAgentReport } from "@/lib/services/agent-reports/record";
import type { RequestCtx } from "@/lib/services/context";
import { evaluateAll } from "@/lib/services/drift/evaluate-all";
import { driftSettled } from "@/lib/services/drift/evaluate-workspace";
import { listDrifts } from "@/lib/services/drift/list-drifts";
import { createEnvironment } from "@/lib/services/environments/create";
import { listUpdates } from "@/lib/services/insights/updates";
import { listWaitingReleasesOf } from "@/lib/services/insights/waiting-releases";
import { updateService } from "@/lib/services/services/update";
import { getServiceOrThrow } from "@/lib/services/services/get";
import type { CheckDeps } from "@/lib/services/upstream/check-repository";
import { runCheckTick } from "@/lib/services/upstream/run-check-tick";
import { setupWorkspace } from "@/lib/services/workspaces/setup";
import { describeWaiting } from "@/components/insights/waiting-releases";
import { formatShortDay } from "@/lib/render/dates";
import { api, baseUrl, makeWorkspace } from "../support/api";
import { registryPusher } from "../support/registry";
import { fixture, startReplayServer, type ReplayServer } from "../support/replay-server";
import { createScratchDb, type ScratchDb } from "../support/scratch-db";
import { sessionCookie, sessionRequest } from "../support/session";

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const ID = randomUUID().slice(0, 6);

type Exchange = { status: number; headers: Record<string, string>; body: Record<string, unknown>[] };

let scratch: ScratchDb;
let db: Db;
let github: ReplayServer;
let pusher: ReturnType<typeof registryPusher>;
let deps: CheckDeps;
let workspaceId: string;
let clock = Date.now();
const requests: { method: string; path: string }[] = [];
const releases: Record<string, unknown>[] = [];

const ctx = (): RequestCtx => ({ db, config: deps.config, now: new Date(clock), actor: { kind: "system", workspaceId } });

async function cycle() {
  const checks = await runCheckTick(deps, { limit: 10 });
  expect(checks.outcomes.every((o) => o.status === "ok"), JSON.stringify(checks.outcomes)).toBe(true);
  await evaluateAll({ ctx: { db, config: deps.config, now: new Date(clock) } });
}

/** A release as GitHub's releases API lists it (a recorded one, renamed). */
function githubRelease(tag: string, publishedAt: Date) {
  const recorded = fixture<Exchange>("forges/github/releases-page1.json").body[0]!;
  return { ...recorded, tag_name: tag, name: tag, draft: false, prerelease: false, created_at: publishedAt.toISOString(), published_at: publishedAt.toISOString(), html_url: `https://github.com/acme/aged-${ID}/releases/tag/${tag}` };
}

async function deploy(service: string, repo: string, version: string) {
  const key = await createAgentKey({ ctx: ctx(), input: { name: `agent-${service}` } });
  await recordAgentReport({
    ctx: { ...ctx(), actor: { kind: "agent", agentKeyId: key.id, workspaceId, name: "agent" } },
    input: {
      environment: "production",
      target: { name: `docker@${service}`, kind: "docker" },
      observed_at: new Date(clock).toISOString(),
      workloads: [{ service, container: service, main: true, image: `${inject("registryHost")}/${repo}:${version}`, digest: null, platform_digest: null, platform: "linux/amd64", since: new Date(clock - 10 * DAY).toISOString() }],
      registry_results: [],
    },
  });
}

const REPO_SEEN = `aged/seen-${ID}`;
const REPO_FORGE = `aged/forge-${ID}`;

beforeAll(async () => {
  scratch = await createScratchDb("min_release_age");
  db = scratch.db;
  pusher = registryPusher(inject("registryUrl"));
  for (const repo of [REPO_SEEN, REPO_FORGE]) for (const tag of ["1.0.0", "1.1.0"]) await pusher.pushImage(repo, tag);
  github = await startReplayServer([{ path: `/repos/acme/aged-${ID}/releases`, reply: () => ({ status: 200, headers: { "content-type": "application/json; charset=utf-8" }, body: releases }) }]);
  const host = inject("registryHost");
  const config: Config = loadConfig({}, { serverRegistries: [host], insecureRegistries: [host], eolEnabled: false, githubApiUrl: github.url });
  deps = {
    db,
    config,
    get now() { return new Date(clock); },
    clients: {
      registry: createRegistryClient({ insecureHosts: [host], timeoutMs: 5_000, onRequest: (r) => requests.push({ method: r.method, path: r.path }) }),
      forges: createForgeClients({ githubApiUrl: github.url, now: () => clock }),
      eol: createEolClient({ apiUrl: "http://127.0.0.1:9/api/v1", enabled: false }),
    },
  };
  ({ workspaceId } = await setupWorkspace({ ctx: { db }, input: { workspace: "aged", email: "aged@example.test", password: `pw-${randomUUID()}` } }));
  await createEnvironment({ ctx: ctx(), input: { name: "production", position: 1, production: true } });
  await deploy("seen", REPO_SEEN, "1.1.0");
  await deploy("forged", REPO_FORGE, "1.1.0");
  await updateService({ ctx: ctx(), input: { name: "seen", policy: { track: "major", min_release_age: "3d" } } });
  await updateService({ ctx: ctx(), input: { name: "forged", policy: { track: "major", min_release_age: "3d", github: `acme/aged-${ID}` } } });
  await driftSettled(workspaceId);
  await cycle(); // the first listing: 1.0.0 and 1.1.0
}, 120_000);

afterAll(async () => {
  await github?.close();
  await scratch?.drop();
});

const upstreamDrifts = async () => (await listDrifts({ ctx: ctx(), input: {} })).items.filter((d) => d.kind === "upstream");

describe("minimum release age", () => {
  it("holds a release published now: no upstream drift, shown as waiting; no manifest pulled", async () => {
    clock += 2 * HOUR;
    const seenAt = clock;
    for (const repo of [REPO_SEEN, REPO_FORGE]) await pusher.pushImage(repo, "3.0.0");
    // On GitHub two days before the registry listing shows it: its age counts from then.
    releases.push(githubRelease("v3.0.0", new Date(seenAt - 2 * DAY)));
    requests.length = 0;
    await cycle();

    expect(requests.filter((r) => r.method === "GET" && r.path.includes("/manifests/"))).toEqual([]);
    expect(requests.filter((r) => r.path.includes("/blobs/"))).toEqual([]);
    expect(await upstreamDrifts()).toEqual([]);
    expect((await listUpdates({ ctx: ctx() })).items).toEqual([]);
    const waiting = await listWaitingReleasesOf({ ctx: ctx() });
    expect(waiting).toEqual([
      { service: "forged", environment: "production", running: "1.1.0", version: "3.0.0", waitsUntil: new Date(seenAt + 1 * DAY), minAge: "3d" },
      { service: "seen", environment: "production", running: "1.1.0", version: "3.0.0", waitsUntil: new Date(seenAt + 3 * DAY), minAge: "3d" },
    ]);
    const day = (t: number) => new Date(t).toUTCString().slice(8, 11) + " " + new Date(t).getUTCDate();
    expect(describeWaiting(waiting[1]!)).toBe(`3.0.0 waits until ${day(seenAt + 3 * DAY)} (minimum age 3d)`);
  });

  it("alerts once old enough, counted from the forge's publication where it has one", async () => {
    const seenAt = clock;
    clock = seenAt + DAY + MIN;
    await cycle();
    expect((await upstreamDrifts()).map((d) => [d.service, d.running, d.expected])).toEqual([["forged", "1.1.0", "3.0.0"]]);
    expect((await listWaitingReleasesOf({ ctx: ctx() })).map((w) => w.service)).toEqual(["seen"]);

    clock = seenAt + 3 * DAY + MIN;
    await cycle();
    const drifts = await upstreamDrifts();
    expect(drifts.map((d) => [d.service, d.running, d.expected]).sort()).toEqual([["forged", "1.1.0", "3.0.0"], ["seen", "1.1.0", "3.0.0"]]);
    // The difference began when the release became old enough, not when it came out.
    expect(drifts.find((d) => d.service === "seen")?.opened_at).toBe(new Date(seenAt + 3 * DAY).toISOString());
    expect((await listUpdates({ ctx: ctx() })).items.map((l) => [l.service, l.target_version])).toEqual(expect.arrayContaining([["seen", "3.0.0"], ["forged", "3.0.0"]]));
    expect(await listWaitingReleasesOf({ ctx: ctx() })).toEqual([]);
  });

  it("refuses a minimum age that is not a duration, like the other durations", async () => {
    await expect(updateService({ ctx: ctx(), input: { name: "seen", policy: { min_release_age: "three days" } } })).rejects.toMatchObject({
      code: "invalid_input",
      errors: [{ pointer: "/policy/min_release_age", detail: "must be a duration such as 15m, 72h or 7d" }],
    });
  });
});

describe("releases of a repository's first listing", () => {
  const FIRST_SEEN = `aged/first-seen-${ID}`;
  const FIRST_FORGE = `aged/first-forge-${ID}`;
  let first: string;
  const firstCtx = (): RequestCtx => ({ db, config: deps.config, now: new Date(clock), actor: { kind: "system", workspaceId: first } });

  beforeAll(async () => {
    for (const repo of [FIRST_SEEN, FIRST_FORGE]) for (const tag of ["1.0.0", "1.2.0"]) await pusher.pushImage(repo, tag);
    ({ workspaceId: first } = await setupWorkspace({ ctx: { db }, input: { workspace: "first-listing", email: "first@example.test", password: `pw-${randomUUID()}` } }));
    await createEnvironment({ ctx: firstCtx(), input: { name: "production", position: 1, production: true } });
    for (const [service, repo] of [["first-seen", FIRST_SEEN], ["first-forged", FIRST_FORGE]] as const) {
      const key = await createAgentKey({ ctx: firstCtx(), input: { name: `agent-${service}` } });
      await recordAgentReport({
        ctx: { ...firstCtx(), actor: { kind: "agent", agentKeyId: key.id, workspaceId: first, name: "agent" } },
        input: {
          environment: "production", target: { name: `docker@${service}`, kind: "docker" }, observed_at: new Date(clock).toISOString(), registry_results: [],
          workloads: [{ service, container: service, main: true, image: `${inject("registryHost")}/${repo}:1.0.0`, digest: null, platform_digest: null, platform: "linux/amd64", since: new Date(clock - 10 * DAY).toISOString() }],
        },
      });
    }
    await updateService({ ctx: firstCtx(), input: { name: "first-seen", policy: { track: "minor", min_release_age: "3d" } } });
    await updateService({ ctx: firstCtx(), input: { name: "first-forged", policy: { track: "minor", min_release_age: "3d", github: `acme/aged-${ID}` } } });
    await driftSettled(first);
  });

  it("do not wait without a publication date, and wait from the forge's date where it is known", async () => {
    // 1.2.0 is in both repositories' first listing; the forge published it a day ago.
    const publishedAt = clock - DAY;
    releases.push(githubRelease("v1.2.0", new Date(publishedAt)));
    await cycle();

    const drifts = (await listDrifts({ ctx: firstCtx(), input: {} })).items.filter((d) => d.kind === "upstream");
    expect(drifts.map((d) => [d.service, d.running, d.expected])).toEqual([["first-seen", "1.0.0", "1.2.0"]]);
    const forged = await getServiceOrThrow({ ctx: firstCtx(), input: { name: "first-forged" } });
    expect(forged.upstream.waiting).toEqual([{ version: "1.2.0", until: new Date(publishedAt + 3 * DAY).toISOString() }]);
    expect((await getServiceOrThrow({ ctx: firstCtx(), input: { name: "first-seen" } })).upstream.waiting).toEqual([]);
  });

  it("an updates line lists the newer releases still waiting, with until when", async () => {
    clock += HOUR;
    const seenAt = clock;
    await pusher.pushImage(FIRST_SEEN, "1.3.0");
    await cycle();
    const lines = (await listUpdates({ ctx: firstCtx() })).items;
    expect(lines.map((l) => [l.service, l.running, l.target_version, l.waiting])).toEqual([
      ["first-seen", "1.0.0", "1.2.0", [{ version: "1.3.0", until: new Date(seenAt + 3 * DAY).toISOString() }]],
    ]);
    expect((await getServiceOrThrow({ ctx: firstCtx(), input: { name: "first-seen" } })).upstream.waiting).toEqual([{ version: "1.3.0", until: new Date(seenAt + 3 * DAY).toISOString() }]);
  });
});

describe("minimum release age on the running server", () => {
  async function waitFor<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 60_000): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const v = await fn();
      if (ok(v) || Date.now() > deadline) return v;
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  it("the updates list and the service page say which release waits, and until when", async () => {
    const ws = await makeWorkspace("aged-pages");
    const repo = `aged/pages-${ID}`;
    for (const tag of ["1.0.0", "1.1.0"]) await pusher.pushImage(repo, tag);
    const report = await api(ws.agentKey).post("/api/v1/agent/report", {
      environment: "production", target: { name: "docker@prod", kind: "docker" }, observed_at: new Date().toISOString(),
      workloads: [{ service: "svc", container: "svc", main: true, image: `${inject("registryHost")}/${repo}:1.1.0`, digest: null, platform_digest: null, platform: "linux/amd64", since: new Date(Date.now() - 10 * DAY).toISOString() }],
    });
    expect(report.status).toBe(202);
    expect((await api(ws.member).patch("/api/v1/services/svc", { policy: { track: "major", min_release_age: "3d" } })).status).toBe(200);
    const newest = () => api(ws.viewer).get("/api/v1/matrix").then((r) => r.body.services.find((s: { name: string }) => s.name === "svc")?.upstream.newest);
    expect((await api(ws.member).post("/api/v1/services/svc/check")).status).toBe(202);
    expect(await waitFor(newest, (n) => n === "1.1.0")).toBe("1.1.0");

    await pusher.pushImage(repo, "3.0.0");
    const before = Date.now();
    expect((await api(ws.member).post("/api/v1/services/svc/check")).status).toBe(202);
    expect(await waitFor(newest, (n) => n === "3.0.0")).toBe("3.0.0");
    const after = Date.now();

    expect((await api(ws.viewer).get("/api/v1/drifts?kind=upstream")).body.items).toEqual([]);
    expect((await api(ws.viewer).get("/api/v1/updates")).body.items).toEqual([]);
    // Scripts see the held release too: the service's upstream.waiting.
    const detail = (await api(ws.viewer).get("/api/v1/services/svc")).body;
    expect(detail.upstream.waiting.map((w: { version: string }) => w.version)).toEqual(["3.0.0"]);
    const until = Date.parse(detail.upstream.waiting[0].until);
    expect(until >= before + 3 * DAY && until <= after + 3 * DAY).toBe(true);
    // And the command line says so after a check.
    const cli = spawnSync(process.execPath, [path.resolve(import.meta.dirname, "../../bin/driftwatch.mjs"), "check", "--service", "svc", "--wait", "--url", baseUrl(), "--token", ws.member], {
      encoding: "utf8", timeout: 120_000, env: { ...process.env, DATABASE_URL: inject("databaseUrl") },
    });
    expect(cli.status, cli.stderr).toBe(0);
    expect(cli.stdout).toContain(`3.0.0 waits until ${detail.upstream.waiting[0].until} (min_release_age).`);
    const days = new Set([formatShortDay(new Date(before + 3 * DAY)), formatShortDay(new Date(after + 3 * DAY))]);
    const said = (html: string) => /3\.0\.0 waits until ([A-Z][a-z]{2} \d{1,2}) \(minimum age 3d\)/.exec(html)?.[1];
    const cookie = await sessionCookie(ws.owner.email, ws.owner.password);
    const updates = await sessionRequest(cookie, "GET", "/updates");
    expect(updates.status).toBe(200);
    expect(days).toContain(said(updates.text));
    const service = await sessionRequest(cookie, "GET", "/services/svc");
    expect(service.status).toBe(200);
    expect(days).toContain(said(service.text));
    // The policy form shows the field, filled in.
    expect(service.text).toMatch(/<input[^>]*name="min_release_age"[^>]*value="3d"/);
  });
});
