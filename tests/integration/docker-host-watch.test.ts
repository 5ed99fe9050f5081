// Watching the server's own Docker host, against an Engine API replayed on a unix socket from recorded
// bodies: who may turn it on, what one run records (through the agent's intake), that a second process
// finds the watch leased, that a repeated run changes nothing, and that an unreachable engine shows its
// error while keeping what was recorded.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { createDockerHost } from "@/lib/server/docker-host";
import type { RequestCtx, Role, TickCtx } from "@/lib/services/context";
import { listDockerHostWatches } from "@/lib/services/docker-host/list";
import type { DockerHost } from "@/lib/services/docker-host/ports";
import { runDockerHostWatches } from "@/lib/services/docker-host/run-watches";
import { stopWatchingDockerHost } from "@/lib/services/docker-host/stop";
import { watchDockerHost } from "@/lib/services/docker-host/watch";
import { dockerRoutes } from "../support/docker-fixture-routes";
import { startReplayServer, type ReplayServer } from "../support/replay-server";
import { api, makeWorkspace, testDb, type TestWorkspace } from "../support/api";

let ws: TestWorkspace;
let other: TestWorkspace;
let tmp: string;
let engine: ReplayServer;
let host: DockerHost;
const config = loadConfig({});
const T0 = new Date("2026-11-27T10:00:00Z");
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const tick = (now: Date): TickCtx => ({ db: testDb(), config, now });
const as = (w: TestWorkspace, role: Role, now = T0): RequestCtx => ({ ...w.ctx, now, actor: { kind: "user", userId: "00000000-0000-4000-8000-000000000001", email: `${role}@example.test`, workspaceId: w.id, role } });
const history = async (w: TestWorkspace) => (await api(w.viewer).get("/api/v1/history?environment=local")).body.items as { service: string; target: string; tag: string; to: string | null }[];
const watches = async (w: TestWorkspace, now = T0) => (await listDockerHostWatches({ ctx: as(w, "viewer", now) })).items;

beforeAll(async () => {
  ws = await makeWorkspace("dockerhost");
  other = await makeWorkspace("dockerhost-other");
  tmp = mkdtempSync(path.join(os.tmpdir(), "dw-host-"));
  const socketPath = path.join(tmp, "docker.sock");
  engine = await startReplayServer(dockerRoutes({ list: "docker/containers-set1.json", containerDirs: ["docker/containers"] }), { socketPath });
  host = createDockerHost({ host: `unix://${socketPath}`, tlsVerify: false, certPath: undefined });
});

afterAll(async () => {
  await engine?.close().catch(() => undefined);
  rmSync(tmp, { recursive: true, force: true });
});

describe("watching the server's Docker host", () => {
  it("needs an admin, a readable socket and an environment name", async () => {
    await expect(watchDockerHost({ ctx: as(ws, "member"), input: { environment: "local" }, host })).rejects.toMatchObject({ code: "forbidden" });
    await expect(watchDockerHost({ ctx: as(ws, "admin"), input: { environment: "not a name" }, host })).rejects.toMatchObject({ code: "invalid_input" });
    const nowhere = createDockerHost({ host: `unix://${path.join(tmp, "missing.sock")}`, tlsVerify: false, certPath: undefined });
    await expect(watchDockerHost({ ctx: as(ws, "admin"), input: { environment: "local" }, host: nowhere })).rejects.toMatchObject({
      code: "unavailable",
      message: `Driftwatch cannot read a Docker socket here: No Docker socket at unix://${path.join(tmp, "missing.sock")}.`,
    });
    const ssh = createDockerHost({ host: "ssh://deploy@box", tlsVerify: false, certPath: undefined });
    expect(await ssh.probe()).toMatchObject({ readable: false, reason: "DOCKER_HOST ssh://deploy@box is not a host Driftwatch can read: use unix:// or tcp://." });
    expect(await watches(ws)).toEqual([]);
  });

  it("records one run through the agent's intake; a second process finds it leased; a repeat changes nothing", async () => {
    const watched = await watchDockerHost({ ctx: as(ws, "admin"), input: { environment: "local" }, host });
    expect(watched).toMatchObject({ target: "docker@app-host-1", environment: "local", engine: "app-host-1", swarm: false, environment_created: true });
    expect(await watches(ws)).toMatchObject([{ id: watched.id, state: "waiting", last_run_at: null, workloads: null, last_error: null }]);

    const probe = await host.probe();
    if (!probe.readable) throw new Error(probe.reason);
    const [outcome] = await runDockerHostWatches({ ctx: tick(at(1)), input: { engine: probe.engine }, host });
    expect(outcome).toMatchObject({ watch: watched.id, reported: ["docker@app-host-1"], error: null });
    // Another process reading the same engine in the same interval: nothing is due.
    expect(await runDockerHostWatches({ ctx: tick(at(1.5)), input: { engine: probe.engine }, host })).toEqual([]);

    const rows = await history(ws);
    expect(new Set(rows.map((r) => `${r.service} ${r.target} ${r.tag} ${r.to}`))).toEqual(
      new Set(["web docker@app-host-1 1.27-alpine null", "api docker@app-host-1 2.4.1 null", "shop-jobs docker@app-host-1 2.4.1 null", "cache docker@app-host-1 7.2 null", "tools docker@app-host-1 dev null", "db docker@app-host-1 16.4 null", "flaky docker@app-host-1 1.36 null"]),
    );
    const [state] = await watches(ws, at(1));
    expect(state).toMatchObject({ state: "reporting", last_run_at: at(1).toISOString(), last_report_at: at(1).toISOString(), workloads: outcome!.workloads, last_error: null });
    expect(outcome!.workloads).toBeGreaterThan(0);

    await runDockerHostWatches({ ctx: tick(at(2)), input: { engine: probe.engine }, host });
    expect((await history(ws)).length).toBe(rows.length);
    expect((await watches(ws, at(2)))[0]).toMatchObject({ state: "reporting", last_report_at: at(2).toISOString() });
  });

  it("shows an unreachable engine's error and keeps what was recorded", async () => {
    const probe = await host.probe({ maxAgeMs: 0 });
    if (!probe.readable) throw new Error(probe.reason);
    const before = await history(ws);
    await engine.close();
    const [outcome] = await runDockerHostWatches({ ctx: tick(at(3)), input: { engine: probe.engine }, host });
    expect(outcome?.error).toMatch(/^docker: Cannot reach Docker Engine at unix:\/\/.*docker\.sock/);
    expect((await watches(ws, at(3)))[0]).toMatchObject({ state: "failing", last_run_at: at(3).toISOString(), last_report_at: at(2).toISOString(), last_error: outcome!.error });
    expect(await history(ws)).toEqual(before);
    expect((await host.probe({ maxAgeMs: 0 })).readable).toBe(false);
    // Nobody has run it for a while: the page must not present the last error as current.
    expect((await watches(ws, at(30)))[0]?.state).toBe("quiet");
  });

  it("stops: no run, and another workspace cannot stop it", async () => {
    const [w] = await watches(ws);
    await expect(stopWatchingDockerHost({ ctx: as(other, "admin"), input: { id: w!.id } })).rejects.toMatchObject({ code: "not_found" });
    await expect(stopWatchingDockerHost({ ctx: as(ws, "member"), input: { id: w!.id } })).rejects.toMatchObject({ code: "forbidden" });
    expect(await stopWatchingDockerHost({ ctx: as(ws, "admin"), input: { id: w!.id } })).toEqual({ target: "docker@app-host-1" });
    expect((await watches(ws))[0]?.state).toBe("stopped");
    expect(await runDockerHostWatches({ ctx: tick(at(10)), input: { engine: { id: w!.engine_id, name: w!.engine, swarmManager: false } }, host })).toEqual([]);
    await expect(stopWatchingDockerHost({ ctx: as(ws, "admin"), input: { id: w!.id } })).rejects.toMatchObject({ code: "not_found" });
  });
});
