// Faults upstream: the real docker-registry behind a fault-injecting proxy, and
// GitHub's releases API replayed behind another, while the scheduler's own
// check cycle (runCheckTick, then drift evaluation, as the background loop
// runs them) works on a database of its own, with a clock the test moves.
// After each fault: the stored tags and releases are exactly what the last
// good check stored (never wiped or half-replaced), the failure is recorded,
// the registry was not hammered, and the next good check converges; no
// duplicated tag, release, drift or event rows at any point.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { loadConfig, type Config } from "@/lib/config";
import { createEolClient } from "@/lib/adapters/eol";
import { createForgeClients } from "@/lib/adapters/forges";
import { createRegistryClient } from "@/lib/adapters/registries/client";
import type { Db } from "@/lib/db/client";
import { createAgentKey } from "@/lib/services/agent-keys/create";
import { evaluateAll } from "@/lib/services/drift/evaluate-all";
import { recordAgentReport } from "@/lib/services/agent-reports/record";
import { driftSettled } from "@/lib/services/drift/evaluate-workspace";
import { setupWorkspace } from "@/lib/services/workspaces/setup";
import type { CheckDeps } from "@/lib/services/upstream/check-repository";
import { runCheckTick } from "@/lib/services/upstream/run-check-tick";
import { startConnectionCounter, startFaultProxy, type FaultProxy, type FaultRule } from "../support/fault-proxy";
import { registryPusher } from "../support/registry";
import { createScratchDb, type ScratchDb } from "../support/scratch-db";
import { fixture, startReplayServer, type ReplayServer } from "../support/replay-server";

type Exchange = { headers: Record<string, string>; body: unknown };

const MIN = 60_000;
const HOUR = 60 * MIN;
const REPO = `faults/app-${randomUUID().slice(0, 6)}`;
const CLIENT_TIMEOUT_MS = 1_500;

let scratch: ScratchDb;
let db: Db;
let registry: FaultProxy;
let githubReplay: ReplayServer;
let github: FaultProxy;
let pusher: ReturnType<typeof registryPusher>;
let deps: CheckDeps;
let workspaceId: string;
let repositoryId: string;
let clock = Date.now();
const tagsPath = `/v2/${REPO}/tags/list`;

/** Advance the test's clock (the scheduler's `now`). */
const advance = (ms: number) => {
  clock += ms;
};

/** One scheduler cycle, as the background loop runs it: due checks, then drift. */
async function cycle() {
  const checks = await runCheckTick(deps, { limit: 10 });
  await evaluateAll({ ctx: { db, config: deps.config, now: deps.now } });
  return checks;
}

/** A cycle one hour (and a bit) later: the repository and its releases are due again. */
async function nextHour() {
  advance(HOUR + MIN);
  return cycle();
}

async function storedTags(): Promise<string[]> {
  return (await db.upstreamTag.findMany({ where: { repositoryId }, select: { name: true } })).map((t) => t.name).sort();
}
async function storedReleases(): Promise<string[]> {
  return (await db.release.findMany({ where: { forgeRepository: { kind: "github", name: "nginx/nginx" } }, select: { tag: true } })).map((r) => r.tag).sort();
}
async function repoState() {
  return db.upstreamRepository.findUniqueOrThrow({ where: { id: repositoryId }, select: { failures: true, lastError: true, dueAt: true, checkedAt: true } });
}
async function forgeState() {
  return db.forgeRepository.findUniqueOrThrow({ where: { kind_name: { kind: "github", name: "nginx/nginx" } }, select: { lastError: true, fetchedAt: true } });
}

/** Nothing stored twice: tag rows, release rows, live drifts per kind, events by dedupe key. */
async function assertNoDuplicates() {
  const [row] = await db.$queryRaw<{ tags: bigint; tag_names: bigint; events: bigint; event_keys: bigint; live: bigint; live_keys: bigint; rel: bigint; rel_keys: bigint }[]>`
    SELECT (SELECT count(*) FROM upstream_tags) AS tags,
           (SELECT count(DISTINCT (repository_id, name)) FROM upstream_tags) AS tag_names,
           (SELECT count(*) FROM events) AS events,
           (SELECT count(DISTINCT (workspace_id, dedupe_key)) FROM events) AS event_keys,
           (SELECT count(*) FROM drifts WHERE active) AS live,
           (SELECT count(DISTINCT (service_id, environment_id, kind)) FROM drifts WHERE active) AS live_keys,
           (SELECT count(*) FROM releases) AS rel,
           (SELECT count(DISTINCT (forge_repository_id, tag)) FROM releases) AS rel_keys`;
  expect(row!.tags).toBe(row!.tag_names);
  expect(row!.events).toBe(row!.event_keys);
  expect(row!.live).toBe(row!.live_keys);
  expect(row!.rel).toBe(row!.rel_keys);
}

/** Drift rows ever opened in the workspace, and events: a failed check must not resolve and reopen anything. */
async function driftAndEventCounts() {
  const drifts = await db.drift.count({ where: { workspaceId } });
  const events = await db.event.count({ where: { workspaceId } });
  return { drifts, events };
}

/**
 * A fault's whole story: from a converged state, push a new tag, fail the next cycle with `rule`,
 * check nothing moved and the failure is recorded, then lift the fault and converge.
 */
async function faultThenRecover(name: string, rule: FaultRule, opts: { requestsAtMost?: number } = {}) {
  const tagsBefore = await storedTags();
  const releasesBefore = await storedReleases();
  const counts = await driftAndEventCounts();
  const newTag = `9.${Math.floor(Math.random() * 1e6)}.0-${name.replace(/[^a-z0-9]/g, "")}`.slice(0, 60);
  await pusher.tagExisting(REPO, newTag, "1.0.0");

  registry.setRule(rule);
  const seen = registry.requests.length;
  const failed = await nextHour();
  registry.setRule(null);
  expect(failed.outcomes, name).toEqual([expect.objectContaining({ status: "failed" })]);
  if (opts.requestsAtMost !== undefined) expect(registry.requests.length - seen, `${name}: requests`).toBeLessThanOrEqual(opts.requestsAtMost);
  expect(await storedTags(), `${name}: tags kept`).toEqual(tagsBefore);
  expect(await storedReleases()).toEqual(releasesBefore);
  const state = await repoState();
  expect(state.failures).toBeGreaterThanOrEqual(1);
  expect(state.lastError).toBeTruthy();
  expect(state.dueAt.getTime()).toBeGreaterThan(clock);
  expect(await driftAndEventCounts()).toEqual(counts);
  await assertNoDuplicates();

  const good = await nextHour();
  expect(good.outcomes, `${name}: recovery`).toEqual([expect.objectContaining({ status: "ok", changed: true })]);
  expect(await storedTags()).toEqual([...tagsBefore, newTag].sort());
  expect(await repoState()).toMatchObject({ failures: 0, lastError: null });
  expect((await driftAndEventCounts()).drifts).toBe(counts.drifts);
  await assertNoDuplicates();
}

/** Serve the real tag list in pages of two, paged by `last` as the distribution API does. */
async function realTags(): Promise<string[]> {
  const res = await fetch(`${inject("registryUrl")}${tagsPath}`);
  return ((await res.json()) as { tags: string[] }).tags.sort();
}
function page(all: string[], last: string | null, size = 2): { status: number; headers: Record<string, string>; body: string } {
  const from = last === null ? 0 : all.findIndex((t) => t > last);
  const items = from < 0 ? [] : all.slice(from, from + size);
  const more = from >= 0 && from + size < all.length;
  return {
    status: 200,
    headers: more ? { link: `<${tagsPath}?n=${size}&last=${encodeURIComponent(items.at(-1)!)}>; rel="next"` } : {},
    body: JSON.stringify({ name: REPO, tags: items }),
  };
}
const lastOf = (path: string) => new URL(path, "http://x").searchParams.get("last");

beforeAll(async () => {
  // A database of its own in the test cluster: the scheduler here leases every due repository.
  scratch = await createScratchDb("faults_upstream");
  db = scratch.db;

  pusher = registryPusher(inject("registryUrl"));
  for (const tag of ["1.0.0", "1.1.0", "1.2.0"]) await pusher.pushImage(REPO, tag);
  registry = await startFaultProxy(inject("registryUrl"));

  const page1 = fixture<Exchange>("forges/github/releases-page1.json");
  const page2 = fixture<Exchange>("forges/github/releases-page2.json");
  githubReplay = await startReplayServer([]);
  github = await startFaultProxy(githubReplay.url);
  githubReplay.setRoutes([
    { path: "/repos/nginx/nginx/releases", reply: () => ({ status: 200, headers: { ...page1.headers, link: page1.headers.link!.replaceAll("{base}", github.url) }, body: page1.body }) },
    { path: "/repositories/7832934/releases", reply: { status: 200, headers: page2.headers, body: page2.body } },
  ]);

  const config: Config = loadConfig({}, { serverRegistries: [registry.host], insecureRegistries: [registry.host], eolEnabled: false, githubApiUrl: github.url });
  deps = {
    db,
    config,
    get now() { return new Date(clock); },
    clients: {
      registry: createRegistryClient({ insecureHosts: [registry.host], timeoutMs: CLIENT_TIMEOUT_MS }),
      forges: createForgeClients({ githubApiUrl: github.url, timeoutMs: CLIENT_TIMEOUT_MS, now: () => clock }),
      eol: createEolClient({ apiUrl: "http://127.0.0.1:9/api/v1", enabled: false }),
    },
  };

  ({ workspaceId } = await setupWorkspace({ ctx: { db }, input: { workspace: "faults", email: "faults@example.test", password: `pw-${randomUUID()}` } }));
  const system = { db, config, get now() { return new Date(clock); }, actor: { kind: "system" as const, workspaceId } };
  const key = await createAgentKey({ ctx: system, input: { name: "agent" } });
  await recordAgentReport({
    ctx: { ...system, actor: { kind: "agent", agentKeyId: key.id, workspaceId, name: "agent" } },
    input: {
      environment: "production",
      target: { name: "docker@prod", kind: "docker" },
      observed_at: new Date(clock).toISOString(),
      workloads: [{ service: "app", container: "app", main: true, image: `${registry.host}/${REPO}:1.0.0`, digest: null, platform_digest: null, platform: "linux/amd64", since: new Date(clock - 3 * 24 * HOUR).toISOString() }],
      registry_results: [],
    },
  });
  await driftSettled(workspaceId); // intake only requests the evaluation: let it finish before changing the service
  await db.service.updateMany({ where: { workspaceId, name: "app" }, data: { policy: { github: "nginx/nginx" } } });
  repositoryId = (await db.upstreamRepository.findFirstOrThrow({ where: { key: `${registry.host}/${REPO}` } })).id;

  const first = await cycle();
  expect(first.outcomes).toEqual([expect.objectContaining({ status: "ok", changed: true, tags: 3 })]);
  expect(await storedTags()).toEqual(["1.0.0", "1.1.0", "1.2.0"]);
  expect((await storedReleases()).length).toBeGreaterThan(2);
  expect(await db.drift.count({ where: { workspaceId, kind: "upstream", active: true } })).toBe(1);
}, 120_000);

afterAll(async () => {
  await registry?.close();
  await github?.close();
  await githubReplay?.close();
  await scratch?.drop();
});

describe("a registry that fails", () => {
  it("times out: nothing stored changes, the failure is recorded, the next check converges", async () => {
    await faultThenRecover("timeout", (r) => (r.path.startsWith(tagsPath) ? { kind: "delay", ms: CLIENT_TIMEOUT_MS + 1_500 } : undefined), { requestsAtMost: 1 });
    expect(await db.upstreamRepository.count({ where: { lastError: { not: null } } })).toBe(0);
  });

  it("answers 500", async () => {
    await faultThenRecover("500", (r) => (r.path.startsWith(tagsPath) ? { kind: "status", status: 500, body: '{"errors":[{"code":"UNKNOWN","message":"boom"}]}' } : undefined), { requestsAtMost: 1 });
  });

  it("drops the connection without an answer", async () => {
    await faultThenRecover("reset", (r) => (r.path.startsWith(tagsPath) ? { kind: "reset" } : undefined), { requestsAtMost: 1 });
  });

  it("returns truncated JSON, complete or cut off mid-body", async () => {
    await faultThenRecover("truncated", (r) => (r.path.startsWith(tagsPath) ? { kind: "truncate", fraction: 0.6, declared: "short" } : undefined));
    await faultThenRecover("cutoff", (r) => (r.path.startsWith(tagsPath) ? { kind: "truncate", fraction: 0.4, declared: "full" } : undefined));
  });

  it("returns malformed JSON, a wrong shape, or an empty list where tags were stored", async () => {
    for (const body of ["<html>502 Bad Gateway</html>", '{"name":"x","tags":"1.0.0"}', '{"name":"x","tags":[1,2]}', '{"name":"x","tags":null}', '{"name":"x","tags":[]}']) {
      await faultThenRecover(`malformed ${body}`, (r) => (r.path.startsWith(tagsPath) ? { kind: "malformed", body } : undefined), { requestsAtMost: 1 });
    }
  });

  it("answers 429 with a Retry-After: no request until it has passed, then converges", async () => {
    const tagsBefore = await storedTags();
    await pusher.tagExisting(REPO, "9.429.0", "1.0.0");
    // Three seconds: longer than the client waits inline, so the check fails fast.
    registry.setRule((r) => (r.path.startsWith(tagsPath) ? { kind: "status", status: 429, headers: { "retry-after": "3" }, body: '{"errors":[{"code":"TOOMANYREQUESTS"}]}' } : undefined));
    const started = Date.now();
    const seen = registry.count(tagsPath);
    const failed = await nextHour();
    expect(failed.outcomes).toEqual([expect.objectContaining({ status: "failed" })]);
    expect(registry.count(tagsPath) - seen).toBe(1);
    // The scheduler honours it: not due again within the Retry-After (nor within its own back-off).
    const state = await repoState();
    expect(state.dueAt.getTime() - clock).toBeGreaterThanOrEqual(3_000);
    expect(await storedTags()).toEqual(tagsBefore);
    advance(5_000);
    expect((await cycle()).leased).toBe(0);
    // Forced due again while the registry's back-off lasts: the client itself sends nothing.
    await db.upstreamRepository.update({ where: { id: repositoryId }, data: { dueAt: new Date(clock) } });
    if (Date.now() - started < 2_500) {
      const blocked = await cycle();
      expect(blocked.outcomes).toEqual([expect.objectContaining({ status: "failed", error: expect.stringContaining("rate limit") })]);
      expect(registry.count(tagsPath) - seen).toBe(1);
    }
    registry.setRule(null);
    await new Promise((r) => setTimeout(r, Math.max(0, 3_200 - (Date.now() - started))));
    const good = await nextHour();
    expect(good.outcomes).toEqual([expect.objectContaining({ status: "ok", changed: true })]);
    expect(await storedTags()).toEqual([...tagsBefore, "9.429.0"].sort());
    await assertNoDuplicates();
  });

  it("answers 429 with a short Retry-After: waited out once, in the same check", async () => {
    let n = 0;
    registry.setRule((r) => (r.path.startsWith(tagsPath) && n++ === 0 ? { kind: "status", status: 429, headers: { "retry-after": "1" } } : undefined));
    await pusher.tagExisting(REPO, "9.430.0", "1.0.0");
    const seen = registry.requests.length;
    const good = await nextHour();
    registry.setRule(null);
    expect(good.outcomes).toEqual([expect.objectContaining({ status: "ok", changed: true })]);
    const tagRequests = registry.requests.slice(seen).filter((r) => r.path.startsWith(tagsPath));
    expect(tagRequests).toHaveLength(2);
    expect(tagRequests[1]!.at - tagRequests[0]!.at).toBeGreaterThanOrEqual(900);
    expect(await storedTags()).toContain("9.430.0");
  });

  it("fails page two of a paged list: the first page is not stored alone", async () => {
    await faultThenRecover("page2-500", async (r) => {
      if (!r.path.startsWith(tagsPath)) return undefined;
      const last = lastOf(r.path);
      return last === null ? { kind: "status", ...page(await realTags(), null) } : { kind: "status", status: 500 };
    });
  });

  it("pages a list that keeps restarting from the top: refused, nothing stored, then converges", async () => {
    await faultThenRecover("restart", async (r) => (r.path.startsWith(tagsPath) ? { kind: "status", ...page(await realTags(), null) } : undefined), { requestsAtMost: 4 });
  });

  it("pages a list that changes between pages: a consistent list is stored and the next check completes it", async () => {
    const all = await realTags();
    // Page one is read, then one tag sorting before it appears and one after it: paging by `last` misses the first.
    const early = "0.0.1-early";
    const late = "99.0.0-late";
    await pusher.tagExisting(REPO, early, "1.0.0");
    await pusher.tagExisting(REPO, late, "1.0.0");
    registry.setRule((r) => {
      if (!r.path.startsWith(tagsPath)) return undefined;
      const last = lastOf(r.path);
      return { kind: "status", ...page(last === null ? all : [...all, early, late].sort(), last) };
    });
    const partial = await nextHour();
    registry.setRule(null);
    expect(partial.outcomes).toEqual([expect.objectContaining({ status: "ok" })]);
    const stored = await storedTags();
    expect(stored).toContain(late);
    for (const t of all) expect(stored).toContain(t);
    await assertNoDuplicates();
    await nextHour();
    expect(await storedTags()).toEqual([...all, early, late].sort());
    await assertNoDuplicates();
  });

  it("redirects to a foreign host or pages there: never followed, no connection made", async () => {
    const foreign = await startConnectionCounter();
    try {
      await faultThenRecover("redirect", (r) => (r.path.startsWith(tagsPath) ? { kind: "redirect", location: `http://${foreign.host}${r.path}` } : undefined));
      // A Link header naming another host is read as a path on the same registry, never as a host to visit.
      const all = await realTags();
      registry.setRule((r) => {
        if (!r.path.startsWith(tagsPath)) return undefined;
        const p = page(all, lastOf(r.path));
        if (p.headers.link) p.headers.link = p.headers.link.replace("<", `<http://${foreign.host}`);
        return { kind: "status", ...p };
      });
      const out = await nextHour();
      registry.setRule(null);
      expect(out.outcomes).toEqual([expect.objectContaining({ status: "ok" })]);
      expect(await storedTags()).toEqual(all);
      expect(foreign.connections()).toBe(0);
    } finally {
      await foreign.close();
    }
  });
});

describe("a forge that fails", () => {
  const releasesPath = "/repos/nginx/nginx/releases";

  async function forgeFault(name: string, rule: FaultRule, opts: { requestsAtMost?: number } = {}) {
    const before = await storedReleases();
    expect(before.length).toBeGreaterThan(0);
    github.setRule(rule);
    const seen = github.requests.length;
    const out = await nextHour();
    github.setRule(null);
    // The registry part of the check is fine; the forge's failure is recorded on the forge repository.
    expect(out.outcomes, name).toEqual([expect.objectContaining({ status: "ok" })]);
    if (opts.requestsAtMost !== undefined) expect(github.requests.length - seen).toBeLessThanOrEqual(opts.requestsAtMost);
    expect(await storedReleases(), `${name}: releases kept`).toEqual(before);
    expect((await forgeState()).lastError, name).toBeTruthy();
    await assertNoDuplicates();
    await nextHour();
    expect(await storedReleases()).toEqual(before);
    expect((await forgeState()).lastError).toBeNull();
    await assertNoDuplicates();
  }

  it("times out, answers 500, truncated or malformed JSON, or pages to a foreign host", async () => {
    const foreign = await startConnectionCounter();
    try {
      await forgeFault("timeout", (r) => (r.path.startsWith(releasesPath) ? { kind: "delay", ms: CLIENT_TIMEOUT_MS + 1_500 } : undefined), { requestsAtMost: 1 });
      await forgeFault("500", (r) => (r.path.startsWith(releasesPath) ? { kind: "status", status: 500, body: '{"message":"Server Error"}' } : undefined), { requestsAtMost: 1 });
      await forgeFault("truncated", (r) => (r.path.startsWith(releasesPath) ? { kind: "truncate", fraction: 0.5 } : undefined));
      await forgeFault("malformed", (r) => (r.path.startsWith(releasesPath) ? { kind: "malformed", body: '[{"tag_name": 5}]' } : undefined));
      await forgeFault("page 2 fails", (r) => (r.path.startsWith("/repositories/7832934/releases") ? { kind: "status", status: 502 } : undefined));
      await forgeFault("redirect", (r) => (r.path.startsWith(releasesPath) ? { kind: "redirect", location: `http://${foreign.host}${r.path}` } : undefined), { requestsAtMost: 1 });
      expect(foreign.connections()).toBe(0);
    } finally {
      await foreign.close();
    }
  });

  it("answers 429 with Retry-After: nothing more is sent to it until then", async () => {
    const before = await storedReleases();
    github.setRule((r) => (r.path.startsWith(releasesPath) ? { kind: "status", status: 429, headers: { "retry-after": String(3 * 3600) }, body: '{"message":"API rate limit exceeded"}' } : undefined));
    const seen = github.requests.length;
    await nextHour();
    expect(github.requests.length - seen).toBe(1);
    expect((await forgeState()).lastError).toMatch(/rate limit/i);
    // Two more hourly checks inside the three hours: not one request.
    await nextHour();
    await nextHour();
    expect(github.requests.length - seen).toBe(1);
    github.setRule(null);
    expect(await storedReleases()).toEqual(before);
    await nextHour();
    expect(github.requests.length - seen).toBeGreaterThan(1);
    expect((await forgeState()).lastError).toBeNull();
    expect(await storedReleases()).toEqual(before);
    await assertNoDuplicates();
  });
});
