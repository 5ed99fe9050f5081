// What Driftwatch says when a registry cannot be reached: the real
// docker-registry behind a fault proxy (refusing, timing out, answering 401),
// checked by the scheduler's own tick with a clock the test moves. The matrix,
// the service, the badge, the updates list, /metrics and the log say so, and
// nothing says up to date; a later good check brings `ok` back. Also: the
// pipeline's promotion comes first on the updates line, and "Skip this
// version" holds until a newer release is out.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { loadConfig, type Config } from "@/lib/config";
import { createEolClient } from "@/lib/adapters/eol";
import { createForgeClients } from "@/lib/adapters/forges";
import { createRegistryClient } from "@/lib/adapters/registries/client";
import type { Db } from "@/lib/db/client";
import { HostWarnings } from "@/lib/domain/upstream";
import { checkWarningLines } from "@/lib/server/check-warnings";
import { createAck } from "@/lib/services/acks/create";
import { createAgentKey } from "@/lib/services/agent-keys/create";
import { recordAgentReport } from "@/lib/services/agent-reports/record";
import { getServiceBadges } from "@/lib/services/badges/list-service-badges";
import type { RequestCtx } from "@/lib/services/context";
import { listDrifts } from "@/lib/services/drift/list-drifts";
import { evaluateAll } from "@/lib/services/drift/evaluate-all";
import { driftSettled } from "@/lib/services/drift/evaluate-workspace";
import { createEnvironment } from "@/lib/services/environments/create";
import { renderMetrics } from "@/lib/services/insights/metrics";
import { listUpdates } from "@/lib/services/insights/updates";
import { getMatrix } from "@/lib/services/matrix/get";
import { getServiceOrThrow } from "@/lib/services/services/get";
import { listFailingRegistries } from "@/lib/services/upstream/failing-registries";
import type { CheckDeps } from "@/lib/services/upstream/check-repository";
import { runCheckTick } from "@/lib/services/upstream/run-check-tick";
import { setupWorkspace } from "@/lib/services/workspaces/setup";
import { startFaultProxy, type FaultProxy } from "../support/fault-proxy";
import { registryPusher } from "../support/registry";
import { createScratchDb, type ScratchDb } from "../support/scratch-db";

const MIN = 60_000;
const HOUR = 60 * MIN;
const REPO = `state/app-${randomUUID().slice(0, 6)}`;

let scratch: ScratchDb;
let db: Db;
let registry: FaultProxy;
let pusher: ReturnType<typeof registryPusher>;
let deps: CheckDeps;
let workspaceId: string;
let clock = Date.now();
const warnings = new HostWarnings();
const logged: string[] = [];

const ctx = (): RequestCtx => ({ db, config: deps.config, now: new Date(clock), actor: { kind: "system", workspaceId } });

async function cycle() {
  const checks = await runCheckTick(deps, { limit: 10 });
  logged.push(...checkWarningLines(checks.outcomes, warnings, new Date(clock)));
  await evaluateAll({ ctx: { db, config: deps.config, now: new Date(clock) } });
  return checks;
}
async function nextHour() {
  clock += HOUR + MIN;
  return cycle();
}

/** Everything a user reads about the service "app", through the services the API and pages use. */
async function whatIsShown() {
  const c = ctx();
  const [matrix, service, badges, updates, metrics, drifts, banner] = await Promise.all([
    getMatrix({ ctx: c, input: {} }),
    getServiceOrThrow({ ctx: c, input: { name: "app" } }),
    getServiceBadges({ ctx: c, input: { name: "app" } }),
    listUpdates({ ctx: c }),
    renderMetrics({ ctx: c }),
    listDrifts({ ctx: c, input: {} }),
    listFailingRegistries({ ctx: c }),
  ]);
  const row = matrix.services.find((s) => s.name === "app")!;
  return { row, service, badges, updates, metrics: metrics.text, drifts, banner };
}

function expectNotUpToDate(shown: Awaited<ReturnType<typeof whatIsShown>>, state: string, error: RegExp | null) {
  expect(shown.row.upstream.state).toBe(state);
  expect(shown.service.upstream.state).toBe(state);
  if (error) {
    expect(shown.row.upstream.error).toMatch(error);
    expect(shown.service.upstream.error).toMatch(error);
  }
  // The last good check's knowledge is kept, with its age.
  expect(shown.row.upstream.newest).toBe("2.0.0");
  for (const b of shown.badges) expect(b.state, `badge ${b.environment}`).not.toBe("up_to_date");
  for (const l of [...shown.updates.items, ...shown.updates.acknowledged]) expect(l.upstream_state).toBe(state);
  for (const d of shown.drifts.items) expect(d.upstream_state).toBe(state);
  expect(shown.metrics).toContain(`driftwatch_upstream_repositories_by_state{host="${registry.host}",state="${state}"} 1`);
}

beforeAll(async () => {
  scratch = await createScratchDb("upstream_state");
  db = scratch.db;
  pusher = registryPusher(inject("registryUrl"));
  for (const tag of ["1.0.0", "1.2.0", "2.0.0"]) await pusher.pushImage(REPO, tag);
  registry = await startFaultProxy(inject("registryUrl"));
  const config: Config = loadConfig({}, { serverRegistries: [registry.host], insecureRegistries: [registry.host], eolEnabled: false });
  deps = {
    db,
    config,
    get now() { return new Date(clock); },
    clients: {
      registry: createRegistryClient({ insecureHosts: [registry.host], timeoutMs: 1_500 }),
      forges: createForgeClients({ githubApiUrl: "http://127.0.0.1:9", timeoutMs: 1_500, now: () => clock }),
      eol: createEolClient({ apiUrl: "http://127.0.0.1:9/api/v1", enabled: false }),
    },
  };
  ({ workspaceId } = await setupWorkspace({ ctx: { db }, input: { workspace: "state", email: "state@example.test", password: `pw-${randomUUID()}` } }));
  const system = { db, config, get now() { return new Date(clock); }, actor: { kind: "system" as const, workspaceId } };
  await createEnvironment({ ctx: ctx(), input: { name: "staging", position: 1 } });
  await createEnvironment({ ctx: ctx(), input: { name: "production", position: 2, production: true } });
  const key = await createAgentKey({ ctx: system, input: { name: "agent" } });
  const report = (environment: string, version: string) =>
    recordAgentReport({
      ctx: { ...system, actor: { kind: "agent", agentKeyId: key.id, workspaceId, name: "agent" } },
      input: {
        environment,
        target: { name: `docker@${environment}`, kind: "docker" },
        observed_at: new Date(clock).toISOString(),
        workloads: [{ service: "app", container: "app", main: true, image: `${registry.host}/${REPO}:${version}`, digest: null, platform_digest: null, platform: "linux/amd64", since: new Date(clock - 10 * 24 * HOUR).toISOString() }],
        registry_results: [],
      },
    });
  await report("staging", "1.2.0");
  await report("production", "1.0.0");
  await driftSettled(workspaceId);
  const first = await cycle();
  expect(first.outcomes).toEqual([expect.objectContaining({ status: "ok" })]);
}, 120_000);

afterAll(async () => {
  await registry?.close();
  await scratch?.drop();
});

describe("upstream state", () => {
  it("after a good check: ok everywhere, and production is told to take staging's version first", async () => {
    const shown = await whatIsShown();
    expect(shown.row.upstream).toMatchObject({ state: "ok", error: null, newest: "2.0.0" });
    expect(shown.service.upstream).toMatchObject({ state: "ok", newest: "2.0.0" });
    expect(shown.banner).toEqual([]);
    const prod = shown.updates.items.find((l) => l.environment === "production")!;
    expect(prod).toMatchObject({ running: "1.0.0", target_version: "2.0.0", promote: { from_environment: "staging", version: "1.2.0" }, upstream_state: "ok" });
    expect(prod.reasons).toEqual(expect.arrayContaining(["major", "behind_previous_env"]));
    expect(shown.metrics).toContain(`driftwatch_upstream_repositories_by_state{host="${registry.host}",state="ok"} 1`);
  });

  it.each([
    ["drops the connection", "reset" as const, /connection closed|refused|socket/],
    ["times out", "delay" as const, /timed out/],
  ])("a registry that %s: failed with the reason, nothing says up to date, one warning", async (_name, kind, reason) => {
    logged.length = 0;
    registry.setRule(() => (kind === "reset" ? { kind: "reset" } : { kind: "delay", ms: 4_000 }));
    const failed = await nextHour();
    registry.setRule(null);
    expect(failed.outcomes).toEqual([expect.objectContaining({ status: "failed" })]);
    const shown = await whatIsShown();
    expectNotUpToDate(shown, "failed", reason);
    expect(shown.banner).toEqual([{ host: registry.host, repositories: 1, reason: expect.stringMatching(reason) }]);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain(registry.host);

    // A good check brings ok back, and the banner goes.
    clock += 2 * HOUR;
    const good = await cycle();
    expect(good.outcomes).toEqual([expect.objectContaining({ status: "ok" })]);
    const back = await whatIsShown();
    expect(back.row.upstream).toMatchObject({ state: "ok", error: null });
    expect(back.banner).toEqual([]);
  }, 60_000);

  it("the same host failing again within the hour logs no second warning", () => {
    const outcome = { status: "failed" as const, host: registry.host, error: "x", retryInMs: 1 };
    const w = new HostWarnings();
    expect(checkWarningLines([outcome, outcome], w, new Date(clock))).toHaveLength(1);
    expect(checkWarningLines([outcome], w, new Date(clock + 30 * MIN))).toHaveLength(0);
    expect(checkWarningLines([outcome], w, new Date(clock + 61 * MIN))).toHaveLength(1);
  });

  it("a stale repository: no good check for three intervals", async () => {
    clock += 4 * HOUR;
    const shown = await whatIsShown();
    // Due again, but nothing ran: what the last check learned is four hours old.
    expectNotUpToDate(shown, "stale", /no successful check/);
    await cycle();
    expect((await whatIsShown()).row.upstream.state).toBe("ok");
  }, 60_000);

  it("skip this version holds until a newer release is out", async () => {
    await createAck({ ctx: ctx(), input: { service: "app", environment: "staging", kind: "release", skip_version: "2.0.0" } });
    clock += MIN;
    await evaluateAll({ ctx: { db, config: deps.config, now: new Date(clock) } });
    let updates = await listUpdates({ ctx: ctx() });
    expect(updates.items.find((l) => l.environment === "staging")).toBeUndefined();
    expect(updates.acknowledged.find((l) => l.environment === "staging")?.ack).toMatchObject({ kind: "release", skip_version: "2.0.0", until_version: null });

    await pusher.pushImage(REPO, "3.0.0");
    await nextHour();
    updates = await listUpdates({ ctx: ctx() });
    expect(updates.items.find((l) => l.environment === "staging")).toMatchObject({ target_version: "3.0.0", reason: "major" });
  }, 60_000);

  it("a registry that answers 401: handed to the agents, unchecked with the reason, never up to date", async () => {
    registry.setRule(() => ({ kind: "status", status: 401, body: JSON.stringify({ errors: [{ code: "UNAUTHORIZED", message: "authentication required" }] }) }));
    const out = await nextHour();
    registry.setRule(null);
    expect(out.outcomes).toEqual([expect.objectContaining({ status: "private" })]);
    const shown = await whatIsShown();
    expect(shown.row.upstream).toMatchObject({ state: "unchecked", checked_by: "agent" });
    expect(shown.row.upstream.error).toMatch(/401 from .*private repository/);
    for (const b of shown.badges) expect(b.state).not.toBe("up_to_date");
    expect(shown.metrics).toContain(`state="unchecked"} 1`);
  }, 60_000);
});

