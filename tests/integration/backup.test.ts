// Backups as an operator takes them: `driftwatch backup` while `driftwatch start`
// runs on its embedded database, then `driftwatch restore` into a fresh embedded
// database and into another PostgreSQL given as DATABASE_URL, every table
// compared row for row. Damaged files, a restore failing half-way and a newer
// schema leave the target exactly as it was. These databases are this file's
// own; the shared test server is not used.
import { spawn } from "node:child_process";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { once } from "node:events";
import os from "node:os";
import path from "node:path";
import { createGunzip, createGzip, gunzipSync, gzipSync } from "node:zlib";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { createBackup } from "@/lib/db/backup/create-backup";
import { BackupWriter, readBackup, type BackupHeader } from "@/lib/db/backup/format";
import { restoreBackup } from "@/lib/db/backup/restore-backup";
import { NOT_BACKED_UP } from "@/lib/db/backup/schema";
import { createDb, type Db } from "@/lib/db/client";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "@/lib/db/embedded";
import { migrateDatabase } from "@/lib/db/migrate";
import { createAgentKey } from "@/lib/services/agent-keys/create";
import { createApiToken } from "@/lib/services/api-tokens/create";
import type { RequestCtx } from "@/lib/services/context";
import { evaluateWorkspaceDrift } from "@/lib/services/drift/evaluate-workspace";
import { routeEvents } from "@/lib/services/notifications/route-events";
import { createRule } from "@/lib/services/notification-rules/create";
import { setupWorkspace } from "@/lib/services/workspaces/setup";
import { startDriftwatch, type RunningServer } from "../support/server";

const ROOT = path.resolve(import.meta.dirname, "../..");
const DAY = 86_400_000;
const FAST = { fsync: "off", synchronous_commit: "off", full_page_writes: "off" };
const D = (n: number) => `sha256:${n.toString(16).padStart(64, "0")}`;

type Cli = { code: number | null; stdout: string; stderr: string };

/** Environment of a user's shell: no DATABASE_URL unless given. */
function envFor(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DRIFTWATCH_EOL: "false", DRIFTWATCH_LOG_LEVEL: "warn", ...extra };
  if (!extra.DATABASE_URL) delete env.DATABASE_URL;
  return env;
}

function cli(args: string[], extra: Record<string, string>): Promise<Cli> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, "bin/driftwatch.mjs"), ...args], { cwd: ROOT, env: envFor(extra), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 150_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Everything a database holds: every table's rows as text, sorted, plus columns, migrations and sequences. */
async function snapshot(url: string): Promise<Record<string, string[]>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("SET TimeZone = 'UTC'; SET DateStyle = ISO, YMD; SET extra_float_digits = 3");
    const out: Record<string, string[]> = {};
    // Not the migrations table (below) nor the notes of recent writes, which are the cluster's own (NOT_BACKED_UP).
    const tables = await client.query<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> ALL($1) ORDER BY 1",
      [NOT_BACKED_UP],
    );
    for (const { name } of tables.rows) {
      const rows = await client.query<{ r: string }>(`SELECT x::text AS r FROM "${name}" x`);
      out[name] = rows.rows.map((r) => r.r).sort();
    }
    const columns = await client.query<{ c: string }>(
      "SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '') AS c FROM information_schema.columns WHERE table_schema = current_schema()",
    );
    out["(columns)"] = columns.rows.map((r) => r.c).sort();
    const migrations = await client.query<{ m: string }>(
      "SELECT migration_name || ' ' || checksum AS m FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY 1",
    ).catch(() => ({ rows: [] as { m: string }[] }));
    out["(migrations)"] = migrations.rows.map((r) => r.m);
    const sequences = await client.query<{ s: string }>("SELECT sequencename || ' ' || coalesce(last_value::text, '-') AS s FROM pg_sequences WHERE schemaname = current_schema() ORDER BY 1");
    out["(sequences)"] = sequences.rows.map((r) => r.s);
    return out;
  } finally {
    await client.end();
  }
}

/** Rewrite a backup through the real writer, so checksums stay valid while content changes. */
async function rewriteBackup(from: string, to: string, edit: { header?: (h: BackupHeader) => BackupHeader; row?: (table: string, line: string, index: number) => string }) {
  const gzip = createGzip();
  const done = once(gzip.pipe(createWriteStream(to)), "close");
  const writer = new BackupWriter(async (chunk) => {
    if (!gzip.write(chunk)) await once(gzip, "drain");
  });
  let index = 0;
  let table = "";
  for await (const r of readBackup(createReadStream(from).pipe(createGunzip()))) {
    if (r.kind === "header") await writer.begin(edit.header ? edit.header(r.header) : r.header);
    else if (r.kind === "table") {
      table = r.name;
      index = 0;
      await writer.beginTable(r.name, r.columns);
    } else if (r.kind === "rows") {
      const lines = r.data.toString("utf8").split("\n").slice(0, -1);
      const edited = lines.map((l) => (edit.row ? edit.row(table, l, index++) : l));
      await writer.rows(Buffer.from(edited.map((l) => l + "\n").join(""), "utf8"));
    } else if (r.kind === "end") await writer.endTable();
    else await writer.finish();
  }
  gzip.end();
  await done;
}

function urlForDatabase(url: string, database: string) {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

describe("driftwatch backup and restore", () => {
  let root: string;
  let srcDir: string;
  let server: RunningServer;
  let srcUrl: string;
  let external: EmbeddedPostgres;
  let copyOfB: EmbeddedPostgres | null = null;
  let backupFile: string;
  let source: Record<string, string[]>;

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), "driftwatch-backup-"));
    srcDir = path.join(root, "src");
    backupFile = path.join(root, "driftwatch.backup");
    [server, external] = await Promise.all([
      // No scheduler: once seeded, nothing in the source changes on its own, so comparisons are exact.
      startDriftwatch({ env: envFor({ DRIFTWATCH_DATA_DIR: srcDir }), args: ["--no-scheduler"], timeoutMs: 180_000 }),
      startEmbeddedPostgres(path.join(root, "external"), { settings: FAST }),
    ]);
    // The running server's database, adopted (never stopped here).
    srcUrl = (await startEmbeddedPostgres(srcDir)).url;
    const db = createDb(srcUrl, { max: 2 });
    try {
      await seed(db, server.baseUrl);
    } finally {
      await db.$disconnect();
    }
    source = await settled(srcUrl);
  }, 300_000);

  afterAll(async () => {
    if (server) {
      server.child.kill("SIGTERM");
      await once(server.child, "exit");
    }
    await copyOfB?.stop();
    await external?.stop();
    if (root) await rm(root, { recursive: true, force: true });
  }, 120_000);

  it("backs up while driftwatch start runs on the embedded database", async () => {
    for (const table of ["workspaces", "users", "memberships", "api_tokens", "agent_keys", "environments", "services", "targets", "runs", "drifts", "events", "acks", "notification_rules", "deliveries", "audit_log", "cache_entries", "upstream_repositories"]) {
      expect(source[table]?.length ?? 0, `seeded rows in ${table}`).toBeGreaterThan(0);
    }
    const r = await cli(["backup", backupFile], { DRIFTWATCH_DATA_DIR: srcDir });
    expect(r.stderr).toMatch(/^backup: runs: \d+ rows?$/m);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.split("\n").filter((l) => l && !/^backup: \w+: [\d,]+ rows?$/.test(l))).toEqual([]); // progress only, no warnings
    const tables = Object.keys(source).filter((t) => !t.startsWith("("));
    const rows = tables.reduce((n, t) => n + source[t]!.length, 0);
    expect(r.stdout).toBe(`Backed up ${tables.length} tables (${rows.toLocaleString("en")} rows, ${source["(migrations)"]!.length} migrations) to ${backupFile} (${r.stdout.match(/\(([\d.]+ [KM]iB)\)\.\n$/)?.[1]}).\n`);
    // The server kept serving throughout, and nothing changed.
    expect((await fetch(`${server.baseUrl}/api/health`)).status).toBe(200);
    expect(await snapshot(srcUrl)).toEqual(source);
    const check = await cli(["restore", "--check", backupFile, "--json"], {});
    expect(check.code, check.stderr).toBe(0);
    expect(JSON.parse(check.stdout)).toMatchObject({ tables: tables.length, rows });
  });

  it("refuses to restore under the running server, and changes nothing", async () => {
    const r = await cli(["restore", "--force", backupFile], { DRIFTWATCH_DATA_DIR: srcDir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^driftwatch: the embedded database in .* is in use .*stop driftwatch start and worker before restoring\n$/);
    expect(await snapshot(srcUrl)).toEqual(source);
  });

  it("restores into a fresh embedded database, every table equal", async () => {
    const dirB = path.join(root, "fresh-embedded");
    const r = await cli(["restore", backupFile], { DRIFTWATCH_DATA_DIR: dirB });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Restored \d+ tables \([\d,]+ rows\) from /);
    expect(r.stderr).toMatch(/^restore: drifts: \d+ rows?$/m);
    copyOfB = await startEmbeddedPostgres(dirB);
    expect(copyOfB.adopted).toBe(false); // the CLI stopped the server it started
    expect(await snapshot(copyOfB.url)).toEqual(source);
  });

  it("restores into an external database given as DATABASE_URL, every table equal, and the data works", async () => {
    expect(Object.keys(await snapshot(external.url)).filter((t) => !t.startsWith("("))).toEqual([]);
    const r = await cli(["restore", backupFile, "--json", "--quiet"], { DATABASE_URL: external.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toMatchObject({ replacedData: false, appliedAfter: [] });
    expect(await snapshot(external.url)).toEqual(source);
    // Sequences continue after the restored ids instead of colliding with them.
    const db = createDb(external.url, { max: 1 });
    try {
      const ws = await db.workspace.findFirstOrThrow();
      const ctx: RequestCtx = { db, config: loadConfig({}), get now() { return new Date(); }, actor: { kind: "system", workspaceId: ws.id } };
      await createApiToken({ ctx, input: { name: "after-restore", role: "viewer" } });
      const maxAudit = await db.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM audit_log`);
      expect(Number(maxAudit[0]!.n)).toBeGreaterThanOrEqual(source.audit_log!.length);
    } finally {
      await db.$disconnect();
    }
  });

  it("refuses a non-empty database without --force, and damaged files, leaving it untouched", async () => {
    const before = await snapshot(external.url);
    const env = { DATABASE_URL: external.url };
    const notEmpty = await cli(["restore", backupFile, "--quiet"], env);
    expect(notEmpty.code).toBe(1);
    expect(notEmpty.stderr).toMatch(/^driftwatch: the database already holds data \(.+\); restore --force replaces all of it\n$/);

    const bytes = await readFile(backupFile);
    const truncated = path.join(root, "truncated.backup");
    await writeFile(truncated, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const flipped = path.join(root, "flipped.backup");
    const raw = Buffer.from(bytes);
    raw[Math.floor(raw.length / 2)]! ^= 0x55;
    await writeFile(flipped, raw);
    const edited = path.join(root, "edited.backup");
    const plain = gunzipSync(bytes).toString("utf8");
    const oneRow = plain.split("\n").findIndex((l, i, all) => i > 2 && !/^(TABLE|END|DONE|HEADER) /.test(l) && l !== "\\." && all[i - 1]!.startsWith("TABLE {\"name\":\"workspaces\""));
    const lines = plain.split("\n");
    lines[oneRow] = lines[oneRow]!.replace(/-/, "+");
    await writeFile(edited, gzipSync(lines.join("\n")));
    const notBackup = path.join(root, "not-a-backup.txt");
    await writeFile(notBackup, "hello\n");
    const empty = path.join(root, "empty.backup");
    await writeFile(empty, "");

    const cases: [string, RegExp][] = [
      [truncated, /^driftwatch: the backup file is truncated \(its compressed data ends early\)\n$/],
      [flipped, /^driftwatch: the backup file is (corrupt|truncated) \(.+\)\n$/],
      [edited, /^driftwatch: the backup file is corrupt \(table workspaces does not match its checksum\)\n$/],
      [notBackup, /^driftwatch: the file is not a Driftwatch backup \(not gzip data\)\n$/],
      [path.join(root, "missing.backup"), /^driftwatch: cannot read .*missing\.backup: no such file\n$/],
      [empty, /^driftwatch: .*empty\.backup is empty: not a Driftwatch backup\n$/],
    ];
    for (const [file, message] of cases) {
      const r = await cli(["restore", "--force", "--quiet", file], env);
      expect(r.code, file).toBe(1);
      expect(r.stderr, file).toMatch(message);
    }
    expect(await snapshot(external.url)).toEqual(before);
  });

  it("refuses a backup from a newer schema", async () => {
    const before = await snapshot(external.url);
    const future = path.join(root, "future.backup");
    await rewriteBackup(backupFile, future, { header: (h) => ({ ...h, migrations: [...h.migrations, { name: "29991231235959_from_the_future", checksum: "0".repeat(64) }] }) });
    const r = await cli(["restore", "--force", "--quiet", future], { DATABASE_URL: external.url });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("driftwatch: the backup comes from a newer Driftwatch (migrations this version does not know: 29991231235959_from_the_future); restore it with that version or a later one\n");
    expect(await snapshot(external.url)).toEqual(before);
  });

  it("restore --force is all or nothing: a failure half-way through the tables changes nothing", async () => {
    const before = await snapshot(external.url);
    // Checksums are valid, so the file passes its check; the last table's rows cannot load.
    const header = (await readBackup(createReadStream(backupFile).pipe(createGunzip())).next()).value as { header: BackupHeader };
    const last = header.header.tables.at(-1)!;
    const bad = path.join(root, "bad-row.backup");
    await rewriteBackup(backupFile, bad, { row: (table, line, i) => (table === last && i === 0 ? line.replace(/^[^\t]*/, "not-a-valid-id") : line) });
    const r = await cli(["restore", "--force", bad], { DATABASE_URL: external.url });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^restore: workspaces: /m); // earlier tables had loaded
    expect(r.stderr).toMatch(new RegExp(`^driftwatch: loading the backup failed: .*\\(COPY ${last}, line 1.*\\)\\n$`, "m"));
    expect(await snapshot(external.url)).toEqual(before);
  });

  it("restore --force replaces everything with the backup", async () => {
    const db = createDb(external.url, { max: 1 });
    try {
      await setupWorkspace({ ctx: { db }, input: { workspace: "only-in-target", email: "target@example.test", password: "password-123" } });
    } finally {
      await db.$disconnect();
    }
    expect(await snapshot(external.url)).not.toEqual(source);
    const r = await cli(["restore", "--force", "--json", "--quiet", backupFile], { DATABASE_URL: external.url });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ replacedData: true });
    expect(await snapshot(external.url)).toEqual(source);
  });

  it("restores a backup from an older schema, then migrates it forward", async () => {
    const admin = new pg.Client({ connectionString: external.url });
    await admin.connect();
    try {
      await admin.query("CREATE DATABASE fwd_old");
      await admin.query("CREATE DATABASE fwd_new");
    } finally {
      await admin.end();
    }
    const oldUrl = urlForDatabase(external.url, "fwd_old");
    const newUrl = urlForDatabase(external.url, "fwd_new");
    const dir = path.join(root, "fwd-migrations");
    const write = async (name: string, sql: string) => {
      await mkdir(path.join(dir, name), { recursive: true });
      await writeFile(path.join(dir, name, "migration.sql"), sql);
    };
    await write("0001_items", `CREATE TABLE items (id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL);`);
    await migrateDatabase(oldUrl, { dir });
    const c = new pg.Client({ connectionString: oldUrl });
    await c.connect();
    await c.query(`INSERT INTO items (name) VALUES ('a'), (E'tab\\there'), ('c'); DELETE FROM items WHERE name = 'c'`).finally(() => c.end());
    const file = path.join(root, "old-schema.backup");
    await createBackup(oldUrl, file);

    await write("0002_items_size", `ALTER TABLE items ADD COLUMN size INT NOT NULL DEFAULT 0; UPDATE items SET size = length(name);`);
    const result = await restoreBackup(newUrl, file, { migrationsDir: dir });
    expect(result).toMatchObject({ tables: 1, rows: 2, backupMigrations: 1, appliedAfter: ["0002_items_size"] });
    const after = await snapshot(newUrl);
    expect(after.items).toEqual(["(1,a,1)", "(2,\"tab\there\",8)"]);
    expect(after["(migrations)"]!.map((m) => m.split(" ")[0])).toEqual(["0001_items", "0002_items_size"]);
    expect(after["(sequences)"]).toEqual(["items_id_seq 3"]); // the deleted row's id is not reused
  });
});

describe("a failed migration", () => {
  let pgServer: EmbeddedPostgres;
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), "driftwatch-migfail-"));
    pgServer = await startEmbeddedPostgres(path.join(root, "db"), { settings: FAST });
  }, 120_000);
  afterAll(async () => {
    await pgServer?.stop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it("leaves the database as it was, with a clear error", async () => {
    const dir = path.join(root, "migrations");
    const write = async (name: string, sql: string) => {
      await mkdir(path.join(dir, name), { recursive: true });
      await writeFile(path.join(dir, name, "migration.sql"), sql);
    };
    await write("0001_base", `CREATE TYPE "Color" AS ENUM ('red');\nCREATE TABLE things (id INT PRIMARY KEY, color "Color" NOT NULL);\nINSERT INTO things VALUES (1, 'red');`);
    expect(await migrateDatabase(pgServer.url, { dir })).toEqual({ applied: ["0001_base"], alreadyApplied: 0 });
    const before = await snapshot(pgServer.url);

    // The first statement works, the second is broken: neither may remain.
    await write("0002_broken", `ALTER TABLE things ADD COLUMN size INT;\nUPDATE things SET size = no_such_column;\nCREATE TABLE more (id INT);`);
    await expect(migrateDatabase(pgServer.url, { dir })).rejects.toThrow(/^migration 0002_broken failed and was rolled back: column "no_such_column" does not exist$/);
    expect(await snapshot(pgServer.url)).toEqual(before);
    const record = new pg.Client({ connectionString: pgServer.url });
    await record.connect();
    const rows = await record.query("SELECT migration_name, finished_at IS NOT NULL AS finished FROM _prisma_migrations ORDER BY 1").finally(() => record.end());
    expect(rows.rows).toEqual([{ migration_name: "0001_base", finished: true }]);

    // Fixed, it applies on the next start.
    await write("0002_broken", `ALTER TABLE things ADD COLUMN size INT;\nUPDATE things SET size = 1;`);
    expect(await migrateDatabase(pgServer.url, { dir })).toEqual({ applied: ["0002_broken"], alreadyApplied: 1 });
    expect((await snapshot(pgServer.url)).things).toEqual(["(1,red,1)"]);
  });
});

/** A workspace with real data, through the API and the services the server uses. */
async function seed(db: Db, baseUrl: string) {
  const name = "backup-acme";
  const { workspaceId } = await setupWorkspace({ ctx: { db }, input: { workspace: name, email: `${name}@example.test`, password: "password-123" } });
  const ctx: RequestCtx = { db, config: loadConfig({}), get now() { return new Date(); }, actor: { kind: "system", workspaceId } };
  const member = (await createApiToken({ ctx, input: { name: "member", role: "member" } })).value;
  const viewer = (await createApiToken({ ctx, input: { name: "viewer", role: "viewer" } })).value;
  const agentKey = (await createAgentKey({ ctx, input: { name: "agent" } })).value;
  const call = async (token: string, method: string, p: string, body?: unknown) => {
    const res = await fetch(baseUrl + p, { method, headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) }, body: body ? JSON.stringify(body) : undefined });
    expect(res.status, `${method} ${p}: ${await res.clone().text()}`).toBeLessThan(300);
    return res.status === 204 ? null : res.json();
  };
  await call(member, "POST", "/api/v1/environments", { name: "staging", position: 10, production: false });
  await call(member, "POST", "/api/v1/environments", { name: "production", position: 20, production: true });
  const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
  const workload = (service: string, version: string, since: string, digest: number) => ({
    service, container: service, main: true, image: `registry.backup.test/acme/${service}:${version}`, digest: D(digest), platform_digest: null, platform: "linux/amd64", since,
  });
  const report = (environment: string, target: string, workloads: object[]) =>
    call(agentKey, "POST", "/api/v1/agent/report", { environment, target: { name: target, kind: "docker" }, observed_at: new Date().toISOString(), workloads });
  await report("staging", "docker@stg", [workload("web", "1.27.3", ago(10 * DAY), 2), workload("api", "2.1.0", ago(3 * DAY), 5)]);
  await report("production", "docker@prod", [workload("web", "1.26.0", ago(20 * DAY), 1), workload("api", "2.0.0", ago(9 * DAY), 4)]);
  await report("production", "docker@prod", [workload("web", "1.26.0", ago(20 * DAY), 1), workload("api", "2.1.0", ago(DAY), 5)]);
  await createRule({ ctx, input: { name: "hook", channel: "webhook", config: { url: "http://127.0.0.1:9/hook", secret: "backup-test-secret-value" }, allow_private: true } });
  await evaluateWorkspaceDrift({ ctx: { db, config: { eolEnabled: false, baseUrl }, now: new Date() }, input: { workspaceId } });
  await call(member, "POST", "/api/v1/acks", { service: "web", kind: "drift", environment: "production", duration: "72h" });
  await routeEvents({ ctx: { db, now: new Date() } });
  await call(viewer, "GET", "/api/v1/drifts");
  // Values COPY must escape: backslashes, tabs, newlines, a line that reads `\.`, NULL against empty text.
  await db.$executeRawUnsafe(
    `INSERT INTO cache_entries (key, value, etag, fetched_at) VALUES
     ($1, $2::jsonb, NULL, now()), ('empty-etag', '{}', '', now()), ('dot-line', '"x"', E'\\\\.\\n\\\\.', now())`,
    "weird\\key\twith\ttabs\nand lines",
    JSON.stringify({ s: "line1\nline2\t\\. back\\slash \"q\" ünïcödé 😀", n: [1.5, -0, 1e300] }),
  );
}

/** Wait until the server has finished reacting to the seeding (drift evaluation after reports runs in the background). */
async function settled(url: string): Promise<Record<string, string[]>> {
  let last = await snapshot(url);
  for (let i = 0; i < 30; i++) {
    await new Promise((r) => setTimeout(r, 1_500));
    const now = await snapshot(url);
    if (JSON.stringify(now) === JSON.stringify(last)) return now;
    last = now;
  }
  throw new Error("the seeded database kept changing");
}
