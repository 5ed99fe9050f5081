// How the command line is launched and how it refuses bad usage, through the
// real binary: one line naming the flag and exit 2, from the compiled bundle,
// without writing into the checkout.
import { spawnSync } from "node:child_process";
import { readFileSync, statSync, utimesSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { COMMANDS, programFor } from "@/cli/program";

const ROOT = path.resolve(import.meta.dirname, "../..");
const ENV = {
  ...process.env,
  // Nothing is reachable: a command that got past its options would fail with exit 1, not 2.
  DATABASE_URL: "postgresql://nobody:nothing@127.0.0.1:9/nowhere?connect_timeout=2",
  DRIFTWATCH_URL: "http://127.0.0.1:9",
  DRIFTWATCH_TOKEN: "dw_not-a-token",
  NEXT_DIST_DIR: ".next-cli-usage-absent",
};

function cli(args: string[], input = "") {
  const r = spawnSync(process.execPath, [path.join(ROOT, "bin/driftwatch.mjs"), ...args], { cwd: ROOT, env: ENV, input, encoding: "utf8", timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const gitStatus = () => spawnSync("git", ["status", "--porcelain", "--untracked-files=all"], { cwd: ROOT, encoding: "utf8" }).stdout;

describe("usage errors", () => {
  it.each([
    [["token", "create", "--workspace", "acme", "--role", "admin"], "--role must be viewer or member (got admin)"],
    [["tags", "newest", "--running", "1.0.0", "--track", "huge"], "--track must be patch, minor or major (got huge)"],
    [["tags", "newest", "--running", "1.0.0", "--pin-major", "one"], "--pin-major must be a whole number (got one)"],
    [["start", "--port", "70000"], "--port must be a whole number from 1 to 65535 (got 70000)"],
    [["start", "--eol", "maybe"], "--eol must be true or false (got maybe)"],
    [["worker", "--eol", "off"], "--eol must be true or false (got off)"],
    [["agent", "--interval", "2"], "--interval must be a whole number of at least 5 (got 2)"],
    [["agent", "--url", "driftwatch:3000"], "--url must be an http:// or https:// address (got driftwatch:3000)"],
    [["check", "--service", "web", "--url", "ftp://example.test"], "--url must be an http:// or https:// address (got ftp://example.test)"],
    [["check", "--service", "web", "--wait", "--timeout", "0"], "--timeout must be a whole number of at least 1 (got 0)"],
    [["service", "set", "--name", "web", "--track", "big"], "--track must be patch, minor or major (got big)"],
    [["service", "set", "--name", "web", "--pin-major", "-1"], "--pin-major must be a whole number (got -1)"],
    [["service", "set", "--name", "web", "--prerelease", "yes"], "--prerelease must be true or false (got yes)"],
    [["ack", "--service", "web", "--kind", "all"], "--kind must be release or drift (got all)"],
    [["ack", "--service", "web", "--kind", "drift", "--for", "soon"], "--for must be a duration such as 72h or 7d (got soon)"],
    [["token", "create", "--role", "viewer"], "required option '--workspace <name>' not specified"],
    [["token", "create", "--workspace", "acme", "--role", "viewer", "--bogus"], "unknown option '--bogus'"],
    [["nope"], "unknown command 'nope'"],
  ])("%j", (args, message) => {
    const r = cli(args);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain(`driftwatch: ${message}`);
  });
});

describe("the program", () => {
  it("lists each command with the summary its own module gives it", async () => {
    for (const entry of COMMANDS) {
      const program = await programFor([entry.name]);
      const command = program.commands.find((c) => c.name() === entry.name);
      expect(command, entry.name).toBeDefined();
      expect(command!.description(), entry.name).toBe(entry.summary);
    }
  });

  it("answers --help and help <command> with usage and exit 0", () => {
    const top = cli(["--help"]);
    expect(top.code).toBe(0);
    for (const entry of COMMANDS) expect(top.stdout).toContain(entry.name);
    const help = cli(["help", "token"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Usage: driftwatch token/);
  });
});

describe("the compiled command line", () => {
  it("is rebuilt for a change of content, not of time, and leaves the checkout as it was", () => {
    const before = gitStatus();
    expect(cli(["--help"]).code).toBe(0);
    const state = () => JSON.parse(readFileSync(path.join(ROOT, ".driftwatch-cli/build.json"), "utf8")) as { hash: string; inputs: string[] };
    const built = state();
    expect(built.inputs).toContain("cli/index.ts");
    const bundle = path.join(ROOT, ".driftwatch-cli", built.hash);
    const bundleTime = statSync(bundle).mtimeMs;

    const source = path.join(ROOT, "cli/output.ts");
    const now = new Date();
    utimesSync(source, now, now);
    const r = cli(["tags", "newest", "--running", "1.0.0"], JSON.stringify(["1.0.0", "1.1.0"]));
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ newest: "1.1.0" });
    expect(state().hash).toBe(built.hash);
    expect(statSync(bundle).mtimeMs).toBe(bundleTime);
    expect(gitStatus()).toBe(before);
  });
});
