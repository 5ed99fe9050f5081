// A logical backup of every application table, read in one snapshot while the
// server keeps running, written to a temporary file and renamed into place.
import { createWriteStream } from "node:fs";
import { rename, rm, writeFile } from "node:fs/promises";
import { once } from "node:events";
import { createGzip } from "node:zlib";
import pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import { BackupWriter, rowsText, type BackupHeader, type BackupSummary } from "./format";
import { COPY_SESSION_SETTINGS, listCopyColumns, listTablesInLoadOrder, MIGRATIONS_TABLE, quoteIdent, readSequences } from "./schema";

export type BackupProgress = (line: string) => void;
const PROGRESS_EVERY_ROWS = 100_000;

export async function createBackup(databaseUrl: string, file: string, opts: { progress?: BackupProgress } = {}): Promise<BackupSummary & { bytes: number; migrations: number }> {
  const progress = opts.progress ?? (() => {});
  const partial = `${file}.partial-${process.pid}`;
  await writeFile(partial, "", { mode: 0o600 }).catch((err: NodeJS.ErrnoException) => {
    const why = err.code === "ENOENT" ? "its directory does not exist" : err.code === "EACCES" ? "permission denied" : err.code === "EISDIR" ? "it is a directory" : err.message;
    throw new Error(`cannot write ${file}: ${why}`);
  });
  const client = new pg.Client({ connectionString: databaseUrl, application_name: "driftwatch backup" });
  try {
    await client.connect();
    await client.query(COPY_SESSION_SETTINGS);
    // One snapshot for every table, so the backup is consistent without stopping writers.
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const header = await readHeader(client);
    const gzip = createGzip({ level: 6 });
    const out = createWriteStream(partial, { mode: 0o600, flush: true });
    const piped = gzip.pipe(out);
    const finished = once(piped, "close");
    finished.catch(() => {}); // a write error is reported through `failure` below
    const writer = new BackupWriter(async (chunk) => {
      if (!gzip.write(chunk)) await once(gzip, "drain");
    });
    let failure: unknown = null;
    // A failed write (disk full) must also end a writer waiting for the gzip stream to drain.
    out.once("error", (err) => {
      failure ??= err;
      gzip.destroy(err);
    });
    gzip.on("error", (err) => (failure ??= err));
    let summary: BackupSummary;
    try {
      await writer.begin(header);
      for (const table of header.tables) {
        const columns = await listCopyColumns(client, table);
        await writer.beginTable(table, columns);
        const stream = client.query(copyTo(`COPY ${quoteIdent(table)} (${columns.map(quoteIdent).join(", ")}) TO STDOUT`));
        let nextReport = PROGRESS_EVERY_ROWS;
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          if (failure) throw failure;
          const seen = await writer.rows(chunk);
          if (seen >= nextReport) {
            progress(`backup: ${table}: ${seen.toLocaleString("en")} rows so far`);
            nextReport += PROGRESS_EVERY_ROWS;
          }
        }
        const rows = await writer.endTable();
        progress(`backup: ${table}: ${rowsText(rows)}`);
      }
      summary = await writer.finish();
      gzip.end();
      await finished;
    } catch (err) {
      gzip.destroy();
      out.destroy();
      throw err;
    }
    if (failure) throw failure;
    await client.query("COMMIT");
    await rename(partial, file);
    return { ...summary, bytes: out.bytesWritten, migrations: header.migrations.length };
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  } finally {
    await client.end().catch(() => {});
  }
}

async function readHeader(client: pg.Client): Promise<BackupHeader> {
  const hasMigrations = await client.query<{ present: boolean }>(`SELECT to_regclass($1) IS NOT NULL AS present`, [quoteIdent(MIGRATIONS_TABLE)]);
  if (!hasMigrations.rows[0]!.present) throw new Error("the database has no Driftwatch schema (no _prisma_migrations table): nothing to back up");
  const migrations = await client.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
    `SELECT migration_name, checksum, finished_at FROM ${quoteIdent(MIGRATIONS_TABLE)} WHERE rolled_back_at IS NULL ORDER BY migration_name`,
  );
  const unfinished = migrations.rows.find((m) => m.finished_at === null);
  if (unfinished) throw new Error(`migration ${unfinished.migration_name} is unfinished in this database; resolve it before backing up`);
  const version = await client.query<{ server_version: string }>("SHOW server_version");
  return {
    created_at: new Date().toISOString(),
    postgres: version.rows[0]!.server_version,
    migrations: migrations.rows.map((m) => ({ name: m.migration_name, checksum: m.checksum })),
    tables: await listTablesInLoadOrder(client),
    sequences: await readSequences(client),
  };
}
