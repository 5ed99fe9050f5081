// `driftwatch start` on the embedded database: data survives SIGKILL, the
// restart is not blocked by a stale lock, and SIGTERM stops PostgreSQL too.
import { spawnSync, execFileSync, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, startDriftwatch } from "../support/server";

const ROOT = path.resolve(import.meta.dirname, "../..");
const children: ChildProcess[] = [];
let dataDir = "";

function env(port: number) {
  const e: NodeJS.ProcessEnv = { ...process.env, DRIFTWATCH_DATA_DIR: dataDir, PORT: String(port), DRIFTWATCH_EOL: "false", DRIFTWATCH_LOG_LEVEL: "warn" };
  delete e.DATABASE_URL;
  return e;
}

async function start(port: number, opts: { detached?: boolean } = {}): Promise<{ child: ChildProcess; output: () => string }> {
  const running = await startDriftwatch({ env: env(port), port, ...opts });
  children.push(running.child);
  return running;
}

function cli(port: number, args: string[]) {
  return spawnSync(process.execPath, [path.join(ROOT, "bin/driftwatch.mjs"), ...args], { cwd: ROOT, env: env(port), encoding: "utf8" });
}

function postgresRunning(): boolean {
  try {
    return execFileSync("pgrep", ["-f", `postgres -D ${path.join(dataDir, "pg")}`], { encoding: "utf8" }).trim() !== "";
  } catch {
    return false;
  }
}

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGTERM");
  await new Promise((r) => setTimeout(r, 1500));
  if (postgresRunning()) execFileSync("pkill", ["-INT", "-f", `postgres -D ${path.join(dataDir, "pg")}`]);
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe("embedded database lifecycle", () => {
  it("keeps committed data across SIGKILL and restarts without a stale lock", async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), "driftwatch-restart-"));
    const port = await freePort();
    const { child: first } = await start(port);
    // Started as users start it, the command's first line sets glibc's allocator up (bin/driftwatch.mjs).
    expect(readFileSync(`/proc/${first.pid}/environ`, "utf8").split("\0")).toContain("MALLOC_MMAP_THRESHOLD_=131072");

    expect(cli(port, ["setup", "--workspace", "restart", "--email", "o@example.test", "--password", "password-1"]).status).toBe(0);
    const token = cli(port, ["token", "create", "--workspace", "restart", "--role", "member"]).stdout.trim();
    const created = await fetch(`http://127.0.0.1:${port}/api/v1/environments`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "prod", position: 1, production: true }),
    });
    expect(created.status).toBe(201);

    first.kill("SIGKILL");
    await new Promise((r) => first.once("exit", r));
    const { child: second } = await start(port);
    const list = await fetch(`http://127.0.0.1:${port}/api/v1/environments`, { headers: { authorization: `Bearer ${token}` } });
    expect(await list.json()).toEqual({ items: [{ name: "prod", position: 1, production: true, targets: 0, gate: { mode: "off", soak: "0s", refuse_eol: true, unknown: "allow" } }] });

    second.kill("SIGTERM");
    const code = await new Promise((r) => second.once("exit", r));
    expect(code).toBe(0);
    expect(postgresRunning()).toBe(false);
  });

  it("stops in order on Ctrl-C to its process group: its clients close before the database stops", async () => {
    // As a terminal sends it. A client left open when PostgreSQL stops has its sessions cut (57P01).
    const port = await freePort();
    const { child, output } = await start(port, { detached: true });
    expect(cli(port, ["setup", "--workspace", "ctrl-c", "--email", "c@example.test", "--password", "password-1"]).status).toBe(0);
    const token = cli(port, ["token", "create", "--workspace", "ctrl-c", "--role", "viewer"]).stdout.trim();
    // Connections open in the server's pools, as after any use.
    for (const route of ["/api/v1/matrix", "/api/v1/environments", "/api/v1/updates"]) {
      expect((await fetch(`http://127.0.0.1:${port}${route}`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    }
    process.kill(-child.pid!, "SIGINT");
    const code = await new Promise((r) => child.once("exit", r));
    expect(code).toBe(0);
    expect(output()).not.toMatch(/57P01|an idle connection was closed|terminating connection/);
    expect(postgresRunning()).toBe(false);
  });
});
