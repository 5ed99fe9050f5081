// A clock jump: the server's `now` (RequestCtx.now, the scheduler's deps.now) set
// forwards, then back, while reports, drift evaluation, acknowledgements,
// upstream checks and the notification outbox carry on. History follows the
// runtime's own clock and is untouched; nothing is reopened or emitted twice;
// no drift ends before it began; no duration shown is negative; and work
// scheduled while the clock was ahead is not stuck for as long as it was off.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { AgentReport } from "@/lib/domain/agent-report";
import { createEolClient } from "@/lib/adapters/eol";
import { createForgeClients } from "@/lib/adapters/forges";
import { createRegistryClient } from "@/lib/adapters/registries/client";
import { loadConfig, type Config } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { createAck } from "@/lib/services/acks/create";
import type { RequestCtx } from "@/lib/services/context";
import { createAgentKey } from "@/lib/services/agent-keys/create";
import { evaluateAll } from "@/lib/services/drift/evaluate-all";
import { listDrifts } from "@/lib/services/drift/list-drifts";
import { listPromotionsForWorkspace } from "@/lib/services/insights/promotions";
import { deliverDue, leaseDueDeliveries } from "@/lib/services/notifications/deliver";
import { routeEvents } from "@/lib/services/notifications/route-events";
import { createRule } from "@/lib/services/notification-rules/create";
import { recordAgentReport } from "@/lib/services/agent-reports/record";
import { driftSettled } from "@/lib/services/drift/evaluate-workspace";
import { setupWorkspace } from "@/lib/services/workspaces/setup";
import type { CheckDeps } from "@/lib/services/upstream/check-repository";
import { runCheckTick } from "@/lib/services/upstream/run-check-tick";
import { registryPusher } from "../support/registry";
import { createScratchDb, type ScratchDb } from "../support/scratch-db";

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const T0 = Date.now();
const REPO = `clock/app-${randomUUID().slice(0, 6)}`;
const at = (ms: number) => new Date(T0 + ms).toISOString();

let scratch: ScratchDb;
let db: Db;
let clock = T0;
let config: Config;
let system: RequestCtx;
let agent: RequestCtx;
let deps: CheckDeps;
let workspaceId: string;
let receiver: http.Server;
const received: { delivery: string; type: string }[] = [];

type Workload = AgentReport["workloads"][number];
const w = (version: string, since: number): Workload => ({
  service: "app", container: "app", main: true, image: `${inject("registryHost")}/${REPO}:${version}`, digest: null, platform_digest: null, platform: "linux/amd64", since: at(since),
});
const report = (target: string, observed: number, workloads: Workload[]): AgentReport => ({
  environment: "production", target: { name: target, kind: "docker" }, observed_at: at(observed), workloads, registry_results: [],
});

async function cycle() {
  const checks = await runCheckTick(deps, { limit: 10 });
  await evaluateAll({ ctx: { db, config, now: deps.now } });
  await routeEvents({ ctx: { db, now: deps.now } });
  await deliverDue({ ctx: { db, config, now: deps.now } });
  return checks;
}

async function runs() {
  return (await db.run.findMany({ where: { workspaceId }, orderBy: [{ from: "asc" }, { id: "asc" }], select: { image: true, from: true, to: true, targetId: true } })).map((r) => ({ ...r, from: r.from.toISOString(), to: r.to?.toISOString() ?? null }));
}

async function assertSane() {
  const [row] = await db.$queryRaw<{ events: bigint; keys: bigint; bad_drifts: bigint; bad_runs: bigint; deliveries: bigint; delivery_keys: bigint }[]>`
    SELECT (SELECT count(*) FROM events) AS events, (SELECT count(DISTINCT (workspace_id, dedupe_key)) FROM events) AS keys,
           (SELECT count(*) FROM drifts WHERE resolved_at < opened_at OR announced_at < opened_at OR resolved_at < announced_at) AS bad_drifts,
           (SELECT count(*) FROM runs WHERE "to" < "from") AS bad_runs,
           (SELECT count(*) FROM deliveries) AS deliveries, (SELECT count(DISTINCT (event_id, rule_id)) FROM deliveries) AS delivery_keys`;
  expect(row!.events).toBe(row!.keys);
  expect(row!.bad_drifts).toBe(0n);
  expect(row!.bad_runs).toBe(0n);
  expect(row!.deliveries).toBe(row!.delivery_keys);
  // Every delivery reached the receiver once (each was acknowledged with a 2xx), and every one sent is there.
  expect(new Set(received.map((r) => r.delivery)).size).toBe(received.length);
  expect(received.length).toBe(await db.delivery.count({ where: { state: "sent" } }));
  const promotions = await listPromotionsForWorkspace({ ctx: system });
  for (const p of promotions.items) expect(p.waiting_seconds).toBeGreaterThanOrEqual(0);
}

beforeAll(async () => {
  scratch = await createScratchDb("faults_clock");
  db = scratch.db;
  const pusher = registryPusher(inject("registryUrl"));
  for (const tag of ["1.0.0", "1.1.0"]) await pusher.pushImage(REPO, tag);

  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ delivery: String(req.headers["x-driftwatch-delivery"]), type: String(req.headers["x-driftwatch-event"]) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));

  config = loadConfig({}, { serverRegistries: [inject("registryHost")], insecureRegistries: [inject("registryHost")], eolEnabled: false });
  deps = {
    db, config,
    // The simulated clock moves during the test: each use case reads the instant it runs at.
    get now() { return new Date(clock); },
    clients: {
      registry: createRegistryClient({ insecureHosts: [inject("registryHost")] }),
      forges: createForgeClients({ githubApiUrl: "http://127.0.0.1:9" }),
      eol: createEolClient({ apiUrl: "http://127.0.0.1:9/api/v1", enabled: false }),
    },
  };
  ({ workspaceId } = await setupWorkspace({ ctx: { db }, input: { workspace: "clock", email: "clock@example.test", password: `pw-${randomUUID()}` } }));
  system = { db, config, get now() { return new Date(clock); }, actor: { kind: "system", workspaceId } };
  const key = await createAgentKey({ ctx: system, input: { name: "agent" } });
  agent = { ...system, actor: { kind: "agent", agentKeyId: key.id, workspaceId, name: "agent" } };
  const port = (receiver.address() as AddressInfo).port;
  await createRule({ ctx: system, input: { name: "hook", channel: "webhook", config: { url: `http://127.0.0.1:${port}/hook`, secret: "s".repeat(24) }, allow_private: true } });
}, 120_000);

afterAll(async () => {
  await new Promise<void>((r) => (receiver ? receiver.close(() => r()) : r()));
  await scratch?.drop();
});

describe("the server's clock set forwards, then back", () => {
  it("keeps history, drifts, events and deliveries true through both jumps", async () => {
    // Two production targets disagree: an `inconsistent` drift since the second one started (a day ago).
    await recordAgentReport({ ctx: agent, input: report("docker@a", 0, [w("1.0.0", -2 * DAY)]) });
    await driftSettled(workspaceId); // intake only requests the evaluation; the scheduler's tick would skip it while it runs
    await recordAgentReport({ ctx: agent, input: report("docker@b", 0, [w("1.1.0", -DAY)]) });
    await driftSettled(workspaceId); // intake only requests the evaluation; the scheduler's tick would skip it while it runs
    await cycle();
    const [drift] = (await listDrifts({ ctx: system, input: { kind: "inconsistent" } })).items;
    expect(drift).toMatchObject({ state: "announced", opened_at: at(-DAY) });
    const history = await runs();
    const events0 = await db.event.count();
    // Each announced drift (this one, and `upstream` for the older version) was delivered once.
    expect(received.filter((r) => r.type === "drift_detected")).toHaveLength(await db.drift.count({ where: { workspaceId, state: "announced" } }));
    await assertSane();

    // Forwards a month: every scheduled thing is computed from the wrong clock.
    clock = T0 + 30 * DAY;
    await cycle();
    await createAck({ ctx: system, input: { service: "app", kind: "drift", duration: "1d" } });
    const repoAhead = await db.upstreamRepository.findFirstOrThrow({ where: { key: `${inject("registryHost")}/${REPO}` } });
    expect(repoAhead.dueAt.getTime()).toBeGreaterThan(T0 + 30 * DAY);
    // A delivery leased by a worker that died while the clock was ahead (the lease says "a month from now").
    const real = await db.event.findFirstOrThrow({ where: { workspaceId, type: "drift_detected" } });
    const ev = await db.event.create({ data: { workspaceId, type: real.type, dedupeKey: `clock-test:${randomUUID()}`, payload: real.payload as object, createdAt: new Date(clock) } });
    await routeEvents({ ctx: { db, now: new Date(clock) } });
    const leased = await leaseDueDeliveries({ db, config }, new Date(clock), { workspaceId });
    expect(leased.map((l) => l.event_id)).toContain(ev.id);
    expect(await runs()).toEqual(history);
    await assertSane();

    // Back to the right time: nothing waits a month, nothing is reopened or sent twice.
    clock = T0 + MIN;
    const back = await cycle();
    expect(back.leased).toBe(1);
    expect(back.outcomes).toEqual([expect.objectContaining({ status: "ok" })]);
    const repoNow = await db.upstreamRepository.findFirstOrThrow({ where: { id: repoAhead.id } });
    expect(repoNow.dueAt.getTime()).toBeLessThanOrEqual(clock + 2 * HOUR);
    expect((await db.delivery.findMany({ where: { eventId: ev.id } })).map((d) => d.state)).toEqual(["sent"]);
    expect(await runs()).toEqual(history);
    await assertSane();

    // Back further, past the drift's start: the drift ends (target a catches up) but never before it began.
    clock = T0 - 3 * DAY;
    await recordAgentReport({ ctx: agent, input: report("docker@a", HOUR, [w("1.1.0", 30 * MIN)]) });
    await driftSettled(workspaceId); // intake only requests the evaluation; the scheduler's tick would skip it while it runs
    await cycle();
    const [ended] = (await listDrifts({ ctx: system, input: { kind: "inconsistent", state: "resolved" } })).items;
    expect(ended).toMatchObject({ id: drift!.id, state: "resolved" });
    expect(new Date(ended!.resolved_at!).getTime()).toBeGreaterThanOrEqual(new Date(ended!.opened_at).getTime());
    expect(new Date(ended!.resolved_at!).getTime()).toBeGreaterThanOrEqual(new Date(ended!.announced_at!).getTime());
    // History still from the runtime's clock: the old row closes at the new one's start.
    const after = await runs();
    expect(after.filter((r) => r.to !== null).map((r) => [r.image.split(":").pop(), r.to])).toEqual([["1.0.0", at(30 * MIN)]]);

    // The same evaluation again, at any of the three times: nothing more.
    const events1 = await db.event.count();
    expect(events1).toBeGreaterThan(events0);
    for (const t of [T0 + 30 * DAY, T0 - 3 * DAY, T0 + 2 * MIN]) {
      clock = t;
      await cycle();
    }
    expect(await db.event.count()).toBe(events1);
    expect(await db.drift.count({ where: { workspaceId, kind: "inconsistent" } })).toBe(1);
    expect(await runs()).toEqual(after);
    await assertSane();
  });
});
