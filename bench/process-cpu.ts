// CPU time used by the server and by PostgreSQL, read from /proc: a cost per
// request that other load on the machine changes far less than throughput.
import { readFileSync, readdirSync } from "node:fs";

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** Fields after `comm`: state is 0, ppid 1, utime 11, stime 12, cutime 13, cstime 14. */
function statOf(pid: number): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  } catch {
    return null;
  }
}

/** utime + stime of a process in ms (with `reaped`, also of its children that have exited); null when it is gone. */
export function cpuMsOf(pid: number | undefined, reaped = false): number | null {
  const f = pid === undefined ? null : statOf(pid);
  if (!f) return null;
  return (Number(f[11]) + Number(f[12]) + (reaped ? Number(f[13]) + Number(f[14]) : 0)) * TICK_MS;
}

/** The PostgreSQL server on this machine listening on `port` (started with `-p <port>`), or null. */
export function postmasterOf(databaseUrl: string): number | null {
  const url = new URL(databaseUrl);
  if (!["127.0.0.1", "localhost", "::1", "[::1]"].includes(url.hostname)) return null;
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      if (argv[0]?.endsWith("/postgres") && argv.some((a, i) => (a === "-p" && argv[i + 1] === url.port) || a === `-p ${url.port}`)) return pid;
    } catch {
      // gone meanwhile
    }
  }
  return null;
}

/** CPU ms of a PostgreSQL server: the postmaster, its exited backends, and those running. */
export function postgresCpuMs(postmaster: number): number | null {
  let total = cpuMsOf(postmaster, true);
  if (total === null) return null;
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === postmaster) continue;
    const f = statOf(pid);
    if (f && Number(f[1]) === postmaster) total += (Number(f[11]) + Number(f[12])) * TICK_MS;
  }
  return total;
}
