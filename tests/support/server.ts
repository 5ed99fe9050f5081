// Start a real `driftwatch start` for tests and benchmarks, and wait until it answers.
import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync } from "node:fs";
import path from "node:path";
import { freePort } from "@/lib/db/free-port";
import { runLogFile } from "./secrets";

const ROOT = path.resolve(import.meta.dirname, "../..");

export { freePort };

export type RunningServer = { child: ChildProcess; baseUrl: string; port: number; output: () => string };

export async function startDriftwatch(opts: {
  env: NodeJS.ProcessEnv; args?: string[]; port?: number; echoStderr?: boolean; timeoutMs?: number;
  /** In a process group of its own, as a terminal starts a command: `process.kill(-pid, …)` signals the group. */
  detached?: boolean;
}): Promise<RunningServer> {
  const port = opts.port ?? (await freePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  let output = "";
  // The command itself, as users start it: its first line sets the runtime up (bin/driftwatch.mjs).
  const child = spawn(path.join(ROOT, "bin/driftwatch.mjs"), ["start", "--port", String(port), ...(opts.args ?? [])], {
    cwd: ROOT,
    env: { DRIFTWATCH_BASE_URL: baseUrl, ...opts.env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: opts.detached ?? false,
  });
  // In a test run, everything the server prints is kept for scripts/check-secrets-in-logs.mjs.
  const logFile = runLogFile(`driftwatch-${port}`);
  child.stdout!.on("data", (c: Buffer) => {
    output += c.toString();
    if (logFile) appendFileSync(logFile, c);
  });
  child.stderr!.on("data", (c: Buffer) => {
    output += c.toString();
    if (logFile) appendFileSync(logFile, c);
    if (opts.echoStderr) process.stderr.write(c);
  });
  const deadline = Date.now() + (opts.timeoutMs ?? 120_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`driftwatch start exited (${child.exitCode}):\n${output}`);
    if (await fetch(`${baseUrl}/api/health`).then((r) => r.ok, () => false)) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`driftwatch start did not become healthy:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { child, baseUrl, port, output: () => output };
}
