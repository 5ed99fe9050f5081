// End to end: `driftwatch agent --once` reads a Docker Engine (replayed on a
// unix socket from recorded bodies) and reports to the running server; the
// matrix then shows what runs, with digests.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, makeWorkspace, type TestWorkspace } from "../support/api";
import { dockerRoutes, fixturesById } from "../support/docker-fixture-routes";
import { startReplayServer, type ReplayServer } from "../support/replay-server";

const ROOT = path.resolve(import.meta.dirname, "../..");
let ws: TestWorkspace;
let docker: ReplayServer;
let dir: string;

beforeAll(async () => {
  ws = await makeWorkspace("agent-e2e");
  dir = mkdtempSync(path.join(os.tmpdir(), "dw-agent-e2e-"));
  docker = await startReplayServer(dockerRoutes({ list: "docker/containers-set1.json", containerDirs: ["docker/containers"] }), { socketPath: path.join(dir, "docker.sock") });
});

afterAll(async () => {
  await docker?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Async: the replayed Docker Engine lives in this process and must keep answering. */
function agent(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(ROOT, "bin/driftwatch.mjs"), "agent", ...args], { cwd: ROOT, encoding: "utf8", timeout: 60_000, env: { ...process.env, DRIFTWATCH_DATA_DIR: dir } }, (err, stdout, stderr) => {
      resolve({ status: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe("driftwatch agent --once", () => {
  it("reports the Docker Engine's containers, and the matrix shows their versions and digests", async () => {
    const r = await agent(["--once", "--url", baseUrl(), "--key", ws.agentKey, "--environment", "production", "--docker-host", `unix://${docker.socketPath}`]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(ws.agentKey);

    const matrix = await api(ws.viewer).get("/api/v1/matrix");
    const cell = (service: string) => matrix.body.services.find((s: { name: string }) => s.name === service)?.cells[0];
    const images = fixturesById("docker/images") as Map<string, { RepoTags: string[]; RepoDigests: string[] }>;
    const postgresDigest = [...images.values()].find((i) => i.RepoTags.includes("postgres:16.4"))!.RepoDigests[0]!.split("@")[1];
    expect(cell("db")).toMatchObject({ environment: "production", tag: "16.4", version: "16.4", declared: false });
    expect(cell("db").targets[0]).toMatchObject({ name: "docker@app-host-1", digest: postgresDigest });
    expect(cell("api")).toMatchObject({ tag: "2.4.1", version: "2.4.1" });
    expect(cell("web").targets).toHaveLength(2);

    // Running it again reports the same state: nothing changes.
    const before = (await api(ws.viewer).get("/api/v1/history")).body;
    expect((await agent(["--once", "--url", baseUrl(), "--key", ws.agentKey, "--environment", "production", "--docker-host", `unix://${docker.socketPath}`])).status).toBe(0);
    expect((await api(ws.viewer).get("/api/v1/history")).body).toEqual(before);
  });

  it("exits non-zero with one line when the key is refused", async () => {
    const r = await agent(["--once", "--url", baseUrl(), "--key", "dwa_wrong", "--environment", "production", "--docker-host", `unix://${docker.socketPath}`]);
    expect(r.status).not.toBe(0);
    expect(r.stderr + r.stdout).toMatch(/401|refused|invalid/i);
  });

  it("requires an environment", async () => {
    const r = await agent(["--once", "--url", baseUrl(), "--key", ws.agentKey]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });
});
