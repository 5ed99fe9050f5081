import { readdirSync, readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { stopEmbeddedPostgres } from "../../lib/db/embedded";

/** The run's `driftwatch start`: the process whose data directory is `dataDir`. */
function serverPids(dataDir: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (!cmd.some((a) => a.endsWith("driftwatch.mjs")) || !cmd.includes("start")) continue;
      if (readFileSync(`/proc/${entry}/environ`, "utf8").split("\0").includes(`DRIFTWATCH_DATA_DIR=${dataDir}`)) pids.push(Number(entry));
    } catch {
      // Gone, or not ours to read.
    }
  }
  return pids;
}

export default async function teardown() {
  const dir = process.env.DW_E2E_DIR;
  if (!dir) return;
  const dataDir = path.join(dir, "data");
  // Playwright tears down before it stops its web servers: the server is asked to stop first, in order
  // (its clients, then its PostgreSQL), rather than having its database stopped under it.
  const pids = serverPids(dataDir);
  for (const pid of pids) process.kill(pid, "SIGTERM");
  const deadline = Date.now() + 25_000;
  while (pids.some((pid) => existsPid(pid)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  // Whatever is still running under the directory: a server whose directory is gone outlives the run.
  await stopEmbeddedPostgres(dataDir, { log: (line) => console.warn(line) });
  await rm(dir, { recursive: true, force: true });
}

function existsPid(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
