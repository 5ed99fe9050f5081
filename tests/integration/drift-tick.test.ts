// The scheduler's drift tick evaluates a workspace only when its last
// evaluation no longer holds (lib/services/drift/evaluation-marker.ts): after a
// write drift reads, when the clock reaches the next instant that changes the
// outcome, under other rules, with the clock set back, or minutes later in any
// case. Otherwise it skips the workspace, whichever process ticks.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createEolClient } from "@/lib/adapters/eol";
import { createForgeClients } from "@/lib/adapters/forges";
import { createRegistryClient } from "@/lib/adapters/registries/client";
import type { AgentReport } from "@/lib/domain/agent-report";
import { loadConfig, type Config } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import type { RequestCtx } from "@/lib/services/context";
import { createAgentKey } from "@/lib/services/agent-keys/create";
import { evaluateAll } from "@/lib/services/drift/evaluate-all";
import { MARKER_MAX_AGE_MS } from "@/lib/services/drift/evaluation-marker";
import { recordAgentReport } from "@/lib/services/agent-reports/record";
import { setupWorkspace } from "@/lib/services/workspaces/setup";
import type { CheckDeps } from "@/lib/services/upstream/check-repository";
import { runCheckTick } from "@/lib/services/upstream/run-check-tick";
import { registryPusher } from "../support/registry";
import { createScratchDb, type ScratchDb } from "../support/scratch-db";

const MIN = 60_000;
const T0 = Math.floor(Date.now() / MIN) * MIN;
const D = (n: number) => `sha256:${n.toString(16).padStart(64, "0")}`;
const REPO = `tick/api-${randomUUID().slice(0, 6)}`;

let scratch: ScratchDb;
let db: Db;
let config: Config;
let clock = T0;
let agent: RequestCtx;
let workspaceId: string;
let observed = 0;
let checks: CheckDeps;
let pusher: ReturnType<typeof registryPusher>;

const report = (target: string, version: string, since: number, image = `registry.tick.test/web:${version}`, service = "web"): AgentReport => ({
  environment: "production",
  target: { name: target, kind: "docker" },
  observed_at: new Date(T0 + observed++).toISOString(),
  workloads: [{ service, container: service, main: true, image, digest: D(version.length), platform_digest: null, platform: "linux/amd64", since: new Date(since).toISOString() }],
  registry_results: [],
});

/** One scheduler tick's drift step at the test's clock, as another process would run it too. */
const tick = (over: Partial<Config> = {}) => evaluateAll({ ctx: { db, config: { ...config, ...over }, now: new Date(clock) } });
const counts = (r: Awaited<ReturnType<typeof tick>>) => ({ evaluated: r.evaluated.length, unchanged: r.unchanged, failed: r.failed });
const EVALUATED = { evaluated: 1, unchanged: 0, failed: 0 };
const UNCHANGED = { evaluated: 0, unchanged: 1, failed: 0 };

async function drift() {
  return db.drift.findFirst({ where: { workspaceId, kind: "inconsistent" }, orderBy: { openedAt: "desc" }, select: { state: true, openedAt: true } });
}

beforeAll(async () => {
  scratch = await createScratchDb("drift_tick");
  db = scratch.db;
  pusher = registryPusher(inject("registryUrl"));
  for (const tag of ["1.0.0", "1.1.0"]) await pusher.pushImage(REPO, tag);
  config = loadConfig({}, { serverRegistries: [inject("registryHost")], insecureRegistries: [inject("registryHost")], eolEnabled: false });
  checks = {
    db, config,
    // The simulated clock moves during the test: each use case reads the instant it runs at.
    get now() { return new Date(clock); },
    clients: {
      registry: createRegistryClient({ insecureHosts: [inject("registryHost")] }),
      forges: createForgeClients({ githubApiUrl: "http://127.0.0.1:9" }),
      eol: createEolClient({ apiUrl: "http://127.0.0.1:9/api/v1", enabled: false }),
    },
  };
  ({ workspaceId } = await setupWorkspace({ ctx: { db }, input: { workspace: "tick", email: "tick@example.test", password: `pw-${randomUUID()}` } }));
  const system: RequestCtx = { db, config, get now() { return new Date(clock); }, actor: { kind: "system", workspaceId } };
  const key = await createAgentKey({ ctx: system, input: { name: "agent" } });
  agent = { ...system, actor: { kind: "agent", agentKeyId: key.id, workspaceId, name: "agent" } };
}, 120_000);

afterAll(async () => {
  await scratch?.drop();
});

describe("the drift tick", () => {
  // Two production targets disagree since 14 minutes ago: `inconsistent`, announced after 15 minutes.
  const since = T0 - 14 * MIN;

  it("evaluates a workspace once, then skips it while nothing changed", async () => {
    await recordAgentReport({ ctx: agent, input: report("docker@a", "1.2.0", T0 - 60 * MIN), evaluateDrift: false });
    await recordAgentReport({ ctx: agent, input: report("docker@b", "1.1.0", since), evaluateDrift: false });
    expect(counts(await tick())).toEqual(EVALUATED);
    expect(await drift()).toMatchObject({ state: "open", openedAt: new Date(since) });
    // Another scheduler a moment later.
    clock += 1_000;
    expect(counts(await tick())).toEqual(UNCHANGED);
  });

  it("skips it through writes drift does not read: sign-in attempts, the audit log, an agent's unchanged report", async () => {
    await db.$executeRaw`INSERT INTO login_attempts (key) VALUES ('someone')`;
    await db.$executeRaw`INSERT INTO audit_log (workspace_id, actor, action, subject, data) VALUES (${workspaceId}::uuid, 'test', 'test', 'test', '{}')`;
    // The same state reported again moves only the target's "last seen".
    const repeated = await recordAgentReport({ ctx: agent, input: report("docker@b", "1.1.0", since), evaluateDrift: false });
    expect(repeated).toMatchObject({ changed: false, ignored: null });
    expect(counts(await tick())).toEqual(UNCHANGED);
  });

  it("evaluates when the clock reaches the drift's announcement, and not a millisecond before", async () => {
    clock = since + 15 * MIN - 1;
    expect(counts(await tick())).toEqual(UNCHANGED);
    clock = since + 15 * MIN;
    const result = await tick();
    expect(counts(result)).toEqual(EVALUATED);
    expect(result.evaluated[0]).toMatchObject({ announced: 1, events: 1 });
    expect(await drift()).toMatchObject({ state: "announced" });
    expect(counts(await tick())).toEqual(UNCHANGED);
  });

  it("evaluates after a report that changes what runs", async () => {
    clock += MIN;
    await recordAgentReport({ ctx: agent, input: report("docker@b", "1.2.0", clock - 1_000), evaluateDrift: false });
    const result = await tick();
    expect(counts(result)).toEqual(EVALUATED);
    expect(result.evaluated[0]).toMatchObject({ resolved: 1 });
    expect(counts(await tick())).toEqual(UNCHANGED);
  });

  it("evaluates under other rules, with the clock set back, and after MARKER_MAX_AGE_MS in any case", async () => {
    expect(counts(await tick({ eolEnabled: true }))).toEqual(EVALUATED);
    expect(counts(await tick({ eolEnabled: true }))).toEqual(UNCHANGED);
    expect(counts(await tick())).toEqual(EVALUATED);

    clock -= 10 * MIN;
    expect(counts(await tick())).toEqual(EVALUATED);
    expect(counts(await tick())).toEqual(UNCHANGED);

    clock += MARKER_MAX_AGE_MS - 1;
    expect(counts(await tick())).toEqual(UNCHANGED);
    clock += 1;
    const result = await tick();
    expect(counts(result)).toEqual(EVALUATED);
    expect(result.evaluated[0]).toMatchObject({ opened: 0, announced: 0, resolved: 0, events: 0 });
  });

  it("evaluates after a write it reads made anywhere in the workspace, a policy or an environment", async () => {
    await db.$executeRaw`UPDATE services SET policy = '{"track":"minor"}' WHERE workspace_id = ${workspaceId}::uuid`;
    expect(counts(await tick())).toEqual(EVALUATED);
    await db.$executeRaw`INSERT INTO environments (id, workspace_id, name, position) VALUES (gen_random_uuid(), ${workspaceId}::uuid, 'staging', 5)`;
    expect(counts(await tick())).toEqual(EVALUATED);
    expect(counts(await tick())).toEqual(UNCHANGED);
  });
});

describe("the drift tick and upstream checks", () => {
  /** Makes the repository due now (its bookkeeping, which no trigger notes) and runs the check tick. */
  async function checkNow() {
    await db.$executeRaw`UPDATE upstream_repositories SET due_at = ${new Date(clock - 1)} WHERE key LIKE ${`%${REPO}`}`;
    const tick = await runCheckTick(checks, { limit: 10 });
    expect(tick.leased).toBe(1);
  }
  const upstreamDrift = () => db.drift.findFirst({ where: { workspaceId, kind: "upstream", active: true }, select: { running: true, expected: true } });

  it("skips a workspace after a check that found nothing new, and evaluates after one that found a release", async () => {
    clock += MIN;
    const image = `${inject("registryHost")}/${REPO}:1.0.0`;
    await recordAgentReport({ ctx: agent, input: report("docker@c", "1.0.0", clock - MIN, image, "api"), evaluateDrift: false });
    await checkNow();
    expect(counts(await tick())).toEqual(EVALUATED);
    expect(await upstreamDrift()).toEqual({ running: "1.0.0", expected: "1.1.0" });

    // The hourly check again: the same tags. It moved `checked_at`, which the matrix shows and drift does not read.
    clock += MIN;
    const before = await db.upstreamRepository.findFirstOrThrow({ where: { key: { endsWith: REPO } }, select: { checkedAt: true } });
    await checkNow();
    const after = await db.upstreamRepository.findFirstOrThrow({ where: { key: { endsWith: REPO } }, select: { checkedAt: true } });
    expect(after.checkedAt!.getTime()).toBeGreaterThan(before.checkedAt!.getTime());
    expect(counts(await tick())).toEqual(UNCHANGED);

    await pusher.pushImage(REPO, "1.2.0");
    clock += MIN;
    await checkNow();
    expect(counts(await tick())).toEqual(EVALUATED);
    expect(await upstreamDrift()).toEqual({ running: "1.0.0", expected: "1.2.0" });
    expect(counts(await tick())).toEqual(UNCHANGED);
  });
});
