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
  // A short quiet delay: the demo must keep its targets reporting (every 10 s then) for them to stay live.
  return { ...rest, DRIFTWATCH_DATA_DIR: dataDir, DRIFTWATCH_QUIET_AFTER: "30s" };
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

/** Signs in through the sign-in form's own endpoint with the printed credentials; true when a session was given. */
async function signsInWithPrinted(output: string): Promise<boolean> {
  const [, email, password] = /Sign in as (\S+) with the password (\S+)/.exec(output) ?? [];
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const cookie = csrf.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST", redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie, origin: base },
    body: new URLSearchParams({ email: email!, password: password!, csrfToken, callbackUrl: `${base}/` }),
  });
  await res.body?.cancel();
  return res.headers.getSetCookie().some((c) => c.includes("session-token="));
}

type MatrixTargets = { services: { cells: { targets: { name: string; state: string }[] }[] }[] };
const targetsOf = (m: MatrixTargets) => m.services.flatMap((s) => s.cells.flatMap((c) => c.targets));

/** The agent targets with when each last reported (read as it is, not from the matrix's cache). */
async function agentTargets(): Promise<{ name: string; kind: string; last_report_at: string | null }[]> {
  return ((await get("/api/v1/targets")).items as { name: string; kind: string; last_report_at: string | null }[]).filter((t) => t.kind !== "compose_git");
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

  it("opens on sign-in with the printed credentials shown, and they work", async () => {
    expect(first.output()).not.toMatch(/Running next\.config/);
    const home = await fetch(`${base}/`, { redirect: "manual" });
    await home.body?.cancel();
    expect(home.headers.get("location")).toMatch(/\/signin$/);
    const signin = await (await fetch(`${base}/signin`)).text();
    expect(signin).toContain("driftwatch-demo");
    expect(signin).not.toContain("Create workspace");
    expect(await signsInWithPrinted(first.output())).toBe(true);
  });

  it("keeps its targets reporting while it runs", async () => {
    const started = Date.now();
    // Past the quiet delay (30 s), every agent target has reported again since this test began.
    await new Promise((r) => setTimeout(r, 35_000));
    const targets = targetsOf(await get("/api/v1/matrix")).filter((t) => !t.name.startsWith("compose@"));
    expect(targets.length).toBeGreaterThan(0);
    for (const t of targets) expect(t.state, t.name).toBe("reporting");
    expect((await get("/api/v1/matrix")).summary.quiet_targets).toBe(0);
    for (const t of await agentTargets()) expect(Date.parse(t.last_report_at!), t.name).toBeGreaterThan(started);
  }, 60_000);

  it("dates its releases as published on the forge, weeks back, not first seen today", async () => {
    const promotions = await get("/api/v1/promotions");
    // orders-db (postgres) publishes no forge releases: its dates are when tags were first seen.
    const releases = promotions.items
      .filter((p: { service: string }) => p.service !== "orders-db")
      .flatMap((p: { releases: { published_at: string | null }[] }) => p.releases);
    expect(releases.length).toBeGreaterThan(0);
    const published = releases.map((r: { published_at: string | null }) => r.published_at).filter((d: string | null): d is string => d !== null);
    // Every other promotion's releases come from the demo's forge data, spread over the weeks before now.
    expect(published.length).toBe(releases.length);
    const ages = published.map((d: string) => (Date.now() - Date.parse(d)) / 86_400_000);
    expect(Math.max(...ages)).toBeGreaterThan(10);
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
      expect(await signsInWithPrinted(second.output())).toBe(true);
      // The second run reports too.
      const restarted = Date.now();
      await new Promise((r) => setTimeout(r, 12_000));
      for (const t of await agentTargets()) expect(Date.parse(t.last_report_at!), t.name).toBeGreaterThan(restarted);
      expect((await get("/api/v1/services")).items.length).toBe(before);
      expect((await get("/api/v1/environments")).items.length).toBe(3);
    } finally {
      expect(await stopDemo(second)).toBe(0);
    }
  }, 180_000);
});
