// Property-based fuzzing of every `driftwatch` command through the real
// binary. The commands are read from the list in
// cli/program.ts, so a new command is fuzzed without touching this file.
// Each generated command line must end within the deadline, print no stack
// trace, and either succeed or exit non-zero with one line of error.
// Nothing can be harmed: the database and the server it points at are
// unreachable, so every command that gets as far as acting fails cleanly.
// Reproduce a failure with FUZZ_SEED=<seed printed by fast-check>.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Command, type Option } from "commander";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
// Spawning the CLI costs seconds on a loaded machine: a few cases per command, several at once.
const RUNS = Number(process.env.FUZZ_CLI_RUNS ?? 2);
const CONCURRENCY = 4;
const DEADLINE_MS = 60_000;
const dataDir = mkdtempSync(path.join(os.tmpdir(), "driftwatch-fuzz-cli-"));
const ENV = {
  ...process.env,
  // Closed loopback ports: local commands cannot reach a database, remote ones no server.
  DATABASE_URL: "postgresql://fuzz:fuzz@127.0.0.1:9/nowhere?connect_timeout=5",
  DRIFTWATCH_URL: "http://127.0.0.1:9",
  DRIFTWATCH_TOKEN: "dw_fuzz-not-a-token",
  DRIFTWATCH_DATA_DIR: dataDir,
  DRIFTWATCH_LOG_LEVEL: "warn",
  NEXT_DIST_DIR: ".next-fuzz-cli-absent",
};
// Commands that run until stopped when their input is valid: every case for them carries an invalid part.
const LONG_RUNNING = new Set(["start", "worker", "agent"]);

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

// ─── The commands, as cli/program.ts lists them ──────────────────────────

type Leaf = { words: string[]; options: Option[]; args: number };

async function program(): Promise<Command> {
  const { COMMANDS } = await import("../../cli/program");
  const root = new Command("driftwatch");
  const registered = new Set<(p: Command) => void>();
  for (const command of COMMANDS) {
    for (const register of await command.load()) {
      if (registered.has(register)) continue;
      registered.add(register);
      register(root);
    }
  }
  return root;
}

function leaves(cmd: Command, words: string[] = []): Leaf[] {
  const out: Leaf[] = [];
  for (const sub of cmd.commands) {
    if (sub.name() === "help") continue;
    const w = [...words, sub.name()];
    // A command with subcommands can still act itself (`agent` runs, `agent create` makes a key).
    if (sub.commands.length === 0 || sub.options.length > 0) out.push({ words: w, options: [...sub.options], args: sub.registeredArguments.length });
    out.push(...leaves(sub, w));
  }
  return out;
}

// ─── Generators ────────────────────────────────────────────────────────────

const hostile = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: "grapheme", maxLength: 12 }),
  fc.constantFrom(
    "", " ", "-", "--", "-1", "0", "1e9", "99999999999999999999", "NaN", "true", "false", "null", "{}", "[]", "../../etc/passwd", "/dev/null",
    "a\nb", "a\r\nX: y", "😀", "x".repeat(10_000), "http://", "ftp://x", "nope://", "(a+)+$", "(", "72", "72x", "-72h", "9999d", "patch", "viewer", "admin",
  ),
);

function caseArb(leaf: Leaf) {
  const opt = fc.constantFrom(...(leaf.options.length ? leaf.options : [null])).chain((o): fc.Arbitrary<string[]> => {
    if (!o) return fc.constant([]);
    const flag = o.long ?? o.short!;
    if (o.required || o.optional) return hostile.map((v) => [flag, v]);
    return fc.constant([flag]);
  });
  return fc
    .record({
      options: fc.array(opt, { maxLength: 4 }),
      positional: fc.array(hostile, { maxLength: Math.max(1, leaf.args + 1) }),
      unknown: fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom("--bogus", "-Z", "--json=maybe", "---") }),
      stdin: fc.oneof(fc.constant(""), fc.string({ maxLength: 40 }), fc.constantFrom("[1,2", '{"tags":3}', '["1.0.0", null]', "\u0000\u0001")),
    })
    .map(({ options, positional, unknown, stdin }) => {
      const args = [...leaf.words, ...positional.slice(0, leaf.args), ...options.flat()];
      if (unknown || LONG_RUNNING.has(leaf.words[0]!)) args.push(unknown ?? "--definitely-not-an-option");
      return { args, stdin };
    });
}

// ─── Running the binary ────────────────────────────────────────────────────

let running = 0;
const waiting: (() => void)[] = [];
async function slot<T>(fn: () => Promise<T>): Promise<T> {
  if (running >= CONCURRENCY) await new Promise<void>((r) => waiting.push(r));
  running++;
  try {
    return await fn();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

function cli(args: string[], stdin: string) {
  return slot(
    () =>
      new Promise<{ code: number | null; stdout: string; stderr: string; timedOut: boolean }>((resolve) => {
        const child = spawn(process.execPath, [path.join(ROOT, "bin/driftwatch.mjs"), ...args], { cwd: ROOT, env: ENV });
        let stdout = "";
        let stderr = "";
        let timedOut = false;
        const timer = setTimeout(() => {
          timedOut = true;
          child.kill("SIGKILL");
        }, DEADLINE_MS);
        child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
        child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
        child.stdin.on("error", () => {});
        child.stdin.end(stdin);
        child.on("close", (code) => {
          clearTimeout(timer);
          resolve({ code, stdout, stderr, timedOut });
        });
      }),
  );
}

const STACK = [/\n\s+at /, /node:internal/, /\.tsx?:\d+/, /\.m?js:\d+:\d+/, /node_modules/];
const outcomes = new Map<string, { tried: number; ok: number; refused: number }>();

describe("every CLI command answers generated malformed input with one line and a non-zero exit", async () => {
  const all = leaves(await program());

  it("finds the commands of the contract's CLI table", () => {
    const names = all.map((l) => l.words.join(" "));
    for (const c of ["start", "worker", "setup", "token create", "agent create", "badges reset", "check", "service set", "ack", "promotions", "delivery", "agent", "tags newest"]) {
      expect(names).toContain(c);
    }
  });

  it(
    "fuzzes every command",
    async () => {
      await Promise.all(
        all.map(async (leaf) => {
          const name = leaf.words.join(" ");
          try {
            await fc.assert(
              fc.asyncProperty(caseArb(leaf), async ({ args, stdin }) => {
                const r = await cli(args, stdin);
                const row = outcomes.get(name) ?? { tried: 0, ok: 0, refused: 0 };
                outcomes.set(name, row);
                row.tried++;
                const what = `driftwatch ${args.map((a) => JSON.stringify(a.slice(0, 40))).join(" ")}`;
                expect(r.timedOut, `${what}: still running after ${DEADLINE_MS} ms`).toBe(false);
                for (const re of STACK) expect(re.test(r.stderr), `${what}: stack trace on stderr:\n${r.stderr.slice(0, 800)}`).toBe(false);
                if (r.code === 0) return void row.ok++;
                row.refused++;
                const lines = r.stderr.trim().split("\n").filter((l) => l !== "(run with --help for usage)");
                expect(lines, `${what}: exit ${r.code} with stderr:\n${r.stderr.slice(0, 800)}`).toHaveLength(1);
                expect(lines[0]!.length, what).toBeGreaterThan(0);
              }),
              { numRuns: RUNS, seed: SEED, endOnFailure: true },
            );
          } catch (err) {
            throw new Error(`${name}: ${String((err as Error).message).replace(/(.)\1{99,}/g, (m, c: string) => `${c}×${m.length}`).slice(0, 4000)}`);
          }
        }),
      );
      const lines = [...outcomes].map(([n, r]) => `  ${n.padEnd(16)} ${String(r.tried).padStart(3)} tried  ${r.refused} refused with one line  ${r.ok} accepted`);
      console.log(`fuzz-cli: ${[...outcomes.values()].reduce((n, r) => n + r.tried, 0)} generated command lines over ${all.length} commands (seed ${SEED})\n${lines.join("\n")}`);
    },
    600_000,
  );
});
