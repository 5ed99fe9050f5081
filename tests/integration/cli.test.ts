// The local administrative commands, run as a user would while the server runs.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { inject } from "vitest";
import { api } from "../support/api";

const ROOT = path.resolve(import.meta.dirname, "../..");

function cli(args: string[]) {
  const r = spawnSync(process.execPath, [path.join(ROOT, "bin/driftwatch.mjs"), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: inject("databaseUrl") },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

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
