// Command-line figures: how long `driftwatch` takes to answer, run as users run
// it (a new process each time, through bin/driftwatch.mjs and its compiled
// bundle). Medians of several runs; the bundle is built before the first.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { median, type Figure } from "@/bench/figures";
import { startEmbeddedPostgres } from "@/lib/db/embedded";

const ROOT = path.resolve(import.meta.dirname, "..");
const RUNS = 7;

type Timing = { wallMs: number; cpuMs: number };

/**
 * Wall time of one `driftwatch …`, and the CPU time it used (user + system, from bash's `times`):
 * on a shared machine the wall time grows with the load, the CPU time much less. Throws when it fails.
 */
function timeCommand(args: string[], opts: { env?: Record<string, string>; input?: string } = {}): Timing {
  const start = performance.now();
  const r = spawnSync("bash", ["-c", 'node "$@"; status=$?; times >&2; exit $status', "bash", path.join(ROOT, "bin/driftwatch.mjs"), ...args], {
    cwd: ROOT, env: { ...process.env, ...opts.env }, input: opts.input ?? "", encoding: "utf8", timeout: 120_000,
  });
  const wallMs = performance.now() - start;
  if (r.status !== 0) throw new Error(`driftwatch ${args.join(" ")} exited ${r.status}: ${r.stderr.trim()}`);
  // The last line of `times`: the children's user and system time, as 0m0.081s 0m0.020s.
  const seconds = [...(r.stderr.trim().split("\n").at(-1) ?? "").matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  return { wallMs, cpuMs: (seconds[0] ?? NaN) * 1000 + (seconds[1] ?? NaN) * 1000 };
}

/** Medians of wall and CPU time over `runs` runs. */
function medians(runs: number, fn: () => Timing): Timing {
  const timings = Array.from({ length: runs }, fn);
  return { wallMs: Math.round(median(timings.map((t) => t.wallMs))), cpuMs: Math.round(median(timings.map((t) => t.cpuMs))) };
}

export async function benchCli(): Promise<Figure[]> {
  // Unchanged sources: what every command pays to learn that the bundle is current (built first if it is not).
  const probe = `const { cliEntry } = await import("./scripts/build-cli.mjs"); await cliEntry(); const t = [];
    for (let i = 0; i < 20; i++) { const s = performance.now(); await cliEntry(); t.push(performance.now() - s); }
    t.sort((a, b) => a - b); console.log(t[10]);`;
  const probed = spawnSync(process.execPath, ["--input-type=module", "-e", probe], { cwd: ROOT, encoding: "utf8", timeout: 300_000 });
  if (probed.status !== 0) throw new Error(`building the command line failed: ${probed.stderr.trim()}`);
  const checkMs = Math.round(Number(probed.stdout.trim()) * 10) / 10;

  const help = medians(RUNS, () => timeCommand(["--help"]));
  const tags = JSON.stringify(Array.from({ length: 300 }, (_, i) => `1.${Math.floor(i / 10)}.${i % 10}`));
  const tagsNewest = medians(RUNS, () => timeCommand(["tags", "newest", "--running", "1.2.3"], { input: tags }));

  const dataDir = mkdtempSync(path.join(os.tmpdir(), "driftwatch-bench-cli-"));
  const env = { DRIFTWATCH_DATA_DIR: dataDir, DATABASE_URL: "", DRIFTWATCH_LOG_LEVEL: "warn" };
  let running: Timing;
  let own: Timing;
  try {
    timeCommand(["setup", "--workspace", "bench", "--email", "bench@example.test", "--password", "bench-password"], { env });
    // The command on its own: it starts the embedded PostgreSQL, and stops it when done.
    own = medians(5, () => timeCommand(["token", "create", "--workspace", "bench", "--role", "viewer"], { env }));
    // Beside a running server: the embedded PostgreSQL is up, and the command uses it.
    const pg = await startEmbeddedPostgres(dataDir);
    try {
      running = medians(RUNS, () => timeCommand(["token", "create", "--workspace", "bench", "--role", "viewer"], { env }));
    } finally {
      await pg.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }

  const cpu = (t: Timing) => `; CPU ${t.cpuMs} ms (user + system)`;
  return [
    { name: "cli.bundle_current_check.median_ms", value: checkMs, unit: "ms", target: "< 100 ms", pass: checkMs < 100, note: "content hash of the bundle's inputs, sources unchanged" },
    { name: "cli.help.median_ms", value: help.wallMs, unit: "ms", target: "< 500 ms", pass: help.wallMs < 500, note: `driftwatch --help, median of ${RUNS} processes${cpu(help)}` },
    { name: "cli.tags_newest.median_ms", value: tagsNewest.wallMs, unit: "ms", target: "< 500 ms", pass: tagsNewest.wallMs < 500, note: `driftwatch tags newest --running 1.2.3 < 300 tags, median of ${RUNS}${cpu(tagsNewest)}` },
    { name: "cli.token_create.median_ms", value: running!.wallMs, unit: "ms", target: "< 1500 ms", pass: running!.wallMs < 1500, note: `embedded PostgreSQL already running (as beside driftwatch start), median of ${RUNS}${cpu(running!)}` },
    { name: "cli.token_create_own_database.median_ms", value: own!.wallMs, unit: "ms", target: "", pass: null, note: `the command starts the embedded PostgreSQL and stops it, median of 5${cpu(own!)}` },
  ];
}
