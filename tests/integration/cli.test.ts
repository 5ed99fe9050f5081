// The local administrative commands, run as a user would while the server
// runs; check --wait against a real registry on loopback; and what running the
// command leaves behind in the checkout (nothing).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { api, baseUrl, makeWorkspace } from "../support/api";
import { registryPusher } from "../support/registry";

const ROOT = path.resolve(import.meta.dirname, "../..");
const GENERATED = path.join(ROOT, "lib/db/generated");

function cli(args: string[]) {
  const r = spawnSync(process.execPath, [path.join(ROOT, "bin/driftwatch.mjs"), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: inject("databaseUrl") },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const gitStatus = () => spawnSync("git", ["status", "--porcelain", "--untracked-files=all"], { cwd: ROOT, encoding: "utf8" }).stdout;

/** Every file of the generated Prisma client with its modification time. */
function generatedFiles(dir = GENERATED, out: Record<string, number> = {}): Record<string, number> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) generatedFiles(p, out);
    else out[path.relative(GENERATED, p)] = statSync(p).mtimeMs;
  }
  return out;
}

let statusBefore: string;
let generatedBefore: Record<string, number>;
beforeAll(() => {
  statusBefore = gitStatus();
  generatedBefore = generatedFiles();
});

describe("driftwatch setup and token create", () => {
  it("creates a workspace idempotently and prints a working token alone on stdout", () => {
    const ws = `cli-${Date.now().toString(36)}`;
    const args = ["setup", "--workspace", ws, "--email", `${ws}@example.test`, "--password", "correct horse"];
    expect(cli(args).code).toBe(0);
    const again = cli(args);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/already set up/);

    const token = cli(["token", "create", "--workspace", ws, "--role", "viewer"]);
    expect(token.code).toBe(0);
    expect(token.stdout).toMatch(/^dw_[A-Za-z0-9_-]{40}\n$/);
    return api(token.stdout.trim()).get("/api/v1/environments").then((res) => expect(res.status).toBe(200));
  });

  it("refuses to take over a workspace with another password", () => {
    const ws = `cli-${Date.now().toString(36)}b`;
    expect(cli(["setup", "--workspace", ws, "--email", `${ws}@example.test`, "--password", "first-password"]).code).toBe(0);
    const r = cli(["setup", "--workspace", ws, "--email", `${ws}@example.test`, "--password", "other-password"]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/another password/);
  });

  it("prints agent keys with their own prefix", () => {
    const ws = `cli-${Date.now().toString(36)}c`;
    cli(["setup", "--workspace", ws, "--email", `${ws}@example.test`, "--password", "password-123"]);
    const r = cli(["agent", "create", "--workspace", ws, "--name", "edge-1", "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ name: "edge-1", value: expect.stringMatching(/^dwa_/) });
  });

  it("answers bad usage with one line and a non-zero exit", () => {
    const r = cli(["token", "create", "--workspace", "nope-never", "--role", "admin"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    const missing = cli(["token", "create", "--role", "viewer"]);
    expect(missing.code).toBe(2);
  });

  it("has --help for every command", () => {
    for (const args of [["--help"], ["start", "--help"], ["setup", "--help"], ["token", "create", "--help"], ["agent", "create", "--help"]]) {
      const r = cli(args);
      expect(r.code, args.join(" ")).toBe(0);
      expect(r.stdout).toMatch(/Usage: driftwatch/);
    }
  });
});

describe("driftwatch check --wait", () => {
  const repo = `acme/cli-wait-${Date.now().toString(36)}`;
  let ws: Awaited<ReturnType<typeof makeWorkspace>>;
  let image: string;
  const remote = () => ["--url", baseUrl(), "--token", ws.member];

  beforeAll(async () => {
    ws = await makeWorkspace("cliwait");
    const pusher = registryPusher(inject("registryUrl"));
    for (const tag of ["1.0.0", "1.1.0"]) await pusher.pushImage(repo, tag);
    image = `${inject("registryHost")}/${repo}`;
    const res = await api(ws.agentKey).post("/api/v1/agent/report", {
      environment: "production",
      target: { name: "docker@cli-1", kind: "docker" },
      observed_at: new Date().toISOString(),
      workloads: [
        { service: "api", container: "api", main: true, image: `${image}:1.0.0`, digest: null, platform_digest: null, platform: "linux/amd64", since: "2026-11-01T00:00:00Z" },
        { service: "ghost", container: "ghost", main: true, image: `${inject("registryHost")}/acme/never-pushed-${Date.now().toString(36)}:1.0.0`, digest: null, platform_digest: null, platform: "linux/amd64", since: "2026-11-01T00:00:00Z" },
      ],
    });
    expect(res.status).toBe(202);
  });

  it("prints the newest release the check found, then a new one", async () => {
    const first = cli(["check", "--service", "api", "--wait", ...remote()]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(`Checked ${image}`);
    expect(first.stdout).toMatch(/1\.1\.0/);

    await registryPusher(inject("registryUrl")).pushImage(repo, "1.2.0");
    const second = cli(["check", "--service", "api", "--wait", ...remote()]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain(`Checked ${image}: new release 1.2.0 (newest was 1.1.0).`);

    const again = cli(["check", "--service", "api", "--wait", "--json", ...remote()]);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ service: "api", repository: image, checked_by: "server", error: null, newest: "1.2.0", previous_newest: "1.2.0" });
  });

  it("prints the failure in one line and exits 1", () => {
    // A failure that repeats the previous one changes nothing the API shows: the standing error is reported at the timeout.
    const r = cli(["check", "--service", "ghost", "--wait", "--timeout", "10", ...remote()]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/^driftwatch: the check of .*acme\/never-pushed-.* failed: /);
  });

  it("without --wait, answers at once", () => {
    const r = cli(["check", "--service", "api", ...remote()]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`Checking ${image} now.\n`);
  });
});

describe("what the command leaves in the checkout", () => {
  it("npx driftwatch runs the checkout's command without installing anything", () => {
    const cache = mkdtempSync(path.join(os.tmpdir(), "driftwatch-npx-cache-"));
    try {
      const r = spawnSync("npx", ["driftwatch", "--help"], { cwd: ROOT, env: { ...process.env, npm_config_cache: cache, npm_config_yes: "false" }, encoding: "utf8", timeout: 60_000 });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/Usage: driftwatch/);
      // npx installs what it cannot find locally under <cache>/_npx.
      expect(existsSync(path.join(cache, "_npx"))).toBe(false);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });

  // Last in this file: every command above ran through bin/driftwatch.mjs.
  it("leaves the sources and the generated Prisma client as they were", () => {
    expect(gitStatus()).toBe(statusBefore);
    expect(generatedFiles()).toEqual(generatedBefore);
  });
});
