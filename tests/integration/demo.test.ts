// `driftwatch demo` from a cold data directory, as a new user runs it: its own
// embedded database, loopback registry and end-of-life source; then checked
// through the API only, and started a second time on the same data.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../support/server";

const ROOT = path.resolve(import.meta.dirname, "../..");
const BIN = path.join(ROOT, "bin/driftwatch.mjs");

let dataDir: string;
let port: number;
let token: string;
let base: string;

function env(): NodeJS.ProcessEnv {
  // The demo keeps everything in its data directory, never in the tests' database.
  const { DATABASE_URL: _unused, ...rest } = process.env;
  return { ...rest, DRIFTWATCH_DATA_DIR: dataDir };
}

type Running = { child: ChildProcess; output: () => string; readyMs: number };

async function startDemo(): Promise<Running> {
  const started = Date.now();
  const child = spawn(BIN, ["demo", "--port", String(port)], { cwd: ROOT, env: env(), stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (c: Buffer) => void (output += c.toString()));
  child.stderr!.on("data", (c: Buffer) => void (output += c.toString()));
  const deadline = Date.now() + 240_000;
  while (!output.includes("Driftwatch demo is running at")) {
    if (child.exitCode !== null) throw new Error(`driftwatch demo exited (${child.exitCode}):\n${output}`);
    if (Date.now() > deadline) throw new Error(`driftwatch demo was not ready within 240 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { child, output: () => output, readyMs: Date.now() - started };
}

async function stopDemo(running: Running): Promise<number | null> {
  const exited = new Promise<number | null>((r) => running.child.once("exit", (code) => r(code)));
  running.child.kill("SIGINT");
  return exited;
}

async function get(route: string) {
  const res = await fetch(`${base}${route}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as any;
}

let first: Running;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "driftwatch-demo-"));
  port = await freePort();
  base = `http://127.0.0.1:${port}`;
  first = await startDemo();
  console.log(`driftwatch demo from a cold data directory: ready in ${(first.readyMs / 1000).toFixed(1)} s`);
  const created = spawnSync(BIN, ["token", "create", "--workspace", "demo", "--role", "viewer"], { cwd: ROOT, env: env(), encoding: "utf8", timeout: 60_000 });
  expect(created.status, created.stderr).toBe(0);
  token = created.stdout.trim();
}, 300_000);

afterAll(async () => {
  if (first?.child.exitCode === null) await stopDemo(first);
  rmSync(dataDir, { recursive: true, force: true });
});

describe("driftwatch demo", () => {
  it("prints the address and the sign-in", () => {
    expect(first.output()).toContain(`Driftwatch demo is running at http://localhost:${port}`);
    expect(first.output()).toMatch(/Sign in as demo@example\.com with the password \S+/);
  });

  it("fills three environments and at least eighteen services", async () => {
    const envs = await get("/api/v1/environments");
    expect(envs.items.map((e: { name: string; production: boolean }) => [e.name, e.production])).toEqual([["dev", false], ["staging", false], ["production", true]]);
    const services = await get("/api/v1/services");
    expect(services.items.length).toBeGreaterThanOrEqual(18);
  });

  it("shows every drift kind, and upstream jumps of each size", async () => {
    // End-of-life data and the Compose file in Git are read by the server's first scheduler tick after seeding.
    const kinds = ["upstream", "env", "inconsistent", "declared", "eol"];
    let seen = new Set<string>();
    const deadline = Date.now() + 150_000;
    while (Date.now() < deadline) {
      seen = new Set((await get("/api/v1/drifts")).items.map((d: { kind: string }) => d.kind));
      if (kinds.every((k) => seen.has(k))) break;
      await new Promise((r) => setTimeout(r, 2000));
    }
    expect([...seen].sort()).toEqual([...kinds].sort());
    const updates = await get("/api/v1/updates");
    const reasons = [...new Set(updates.items.map((l: { reason: string }) => l.reason))].sort();
    expect(reasons).toEqual(expect.arrayContaining(["behind_previous_env", "eol_passed", "major", "minor", "patch"]));
    expect(updates.acknowledged.length).toBeGreaterThan(0);
  }, 180_000);

  it("has promotions, acknowledgements and delivery history", async () => {
    expect((await get("/api/v1/promotions")).items.length).toBeGreaterThan(0);
    expect((await get("/api/v1/acks")).items.length).toBeGreaterThan(0);
    const delivery = await get("/api/v1/delivery?window=30d");
    const deploys = delivery.environments.reduce((n: number, e: { deploys: number }) => n + e.deploys, 0);
    expect(deploys).toBeGreaterThan(0);
    expect(delivery.lead_times.some((l: { samples: number }) => l.samples > 0)).toBe(true);
    const targets = (await get("/api/v1/targets")).items;
    expect(targets.find((t: { kind: string }) => t.kind === "compose_git")).toMatchObject({ repository_url: expect.stringMatching(/^file:\/\//), paths: ["staging/compose.yaml"] });
  });

  it("reuses its data on a second run", async () => {
    const before = (await get("/api/v1/services")).items.length;
    expect(await stopDemo(first)).toBe(0);
    const second = await startDemo();
    try {
      console.log(`driftwatch demo on its existing data: ready in ${(second.readyMs / 1000).toFixed(1)} s`);
      expect(second.output()).toContain("already filled");
      expect((await get("/api/v1/services")).items.length).toBe(before);
      expect((await get("/api/v1/environments")).items.length).toBe(3);
    } finally {
      expect(await stopDemo(second)).toBe(0);
    }
  }, 180_000);
});
