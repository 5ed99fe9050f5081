// Restore a backup in one transaction: rebuild the schema at the backup's
// migration level, COPY every table back, set the sequences, then migrate
// forward to this build. Any failure rolls the whole thing back, so the target
// database is either the backup or exactly what it was before.
import { createReadStream } from "node:fs";
import { once } from "node:events";
import { createGunzip } from "node:zlib";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { applyMigration, ensureMigrationsTable, listMigrations, MIGRATION_LOCK_KEY, MIGRATIONS_DIR } from "../migrate";
import { BackupFileError, describeGzipError, rowsText, readBackup, verifyBackup, type BackupHeader } from "./format";
import { COPY_SESSION_SETTINGS, dropSchemaObjects, quoteIdent, tablesWithRows } from "./schema";

export type RestoreOptions = {
  /** Replace a database that already holds data. */
  force?: boolean;
  progress?: (line: string) => void;
  migrationsDir?: string;
};

export type RestoreResult = { tables: number; rows: number; backupMigrations: number; appliedAfter: string[]; replacedData: boolean };

const PROGRESS_EVERY_ROWS = 100_000;

/** The decompressed records of a backup file, with file and gzip errors as one clear line. */
async function* readBackupFile(file: string) {
  const source = createReadStream(file);
  const gunzip = createGunzip();
  source.on("error", (err) => gunzip.destroy(err));
  source.pipe(gunzip);
  try {
    yield* readBackup(gunzip);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === "ENOENT") throw new BackupFileError(`cannot read ${file}: no such file`);
    if (e.code === "EACCES" || e.code === "EISDIR") throw new BackupFileError(`cannot read ${file}: ${e.code === "EACCES" ? "permission denied" : "it is a directory"}`);
    throw describeGzipError(err) ?? err;
  } finally {
    source.destroy();
    gunzip.destroy();
  }
}

/** Read the whole file and check every checksum, touching no database. */
export function checkBackupFile(file: string) {
  return verifyBackup(readBackupFile(file));
}

export async function restoreBackup(databaseUrl: string, file: string, opts: RestoreOptions = {}): Promise<RestoreResult> {
  const progress = opts.progress ?? (() => {});
  progress(`restore: checking ${file}`);
  const checked = await checkBackupFile(file);
  const header = checked.header;
  const known = await listMigrations(opts.migrationsDir ?? MIGRATIONS_DIR);
  const knownNames = new Set(known.map((m) => m.name));
  const newer = header.migrations.filter((m) => !knownNames.has(m.name)).map((m) => m.name);
  if (newer.length > 0) {
    throw new Error(`the backup comes from a newer Driftwatch (migrations this version does not know: ${newer.join(", ")}); restore it with that version or a later one`);
  }
  const inBackup = new Set(header.migrations.map((m) => m.name));

  const client = new pg.Client({ connectionString: databaseUrl, application_name: "driftwatch restore" });
  await client.connect();
  try {
    await client.query(COPY_SESSION_SETTINGS);
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    await refuseIfOthersConnected(client);
    await client.query("BEGIN");
    try {
      const nonEmpty = await tablesWithRows(client);
      if (nonEmpty.length > 0 && !opts.force) {
        const shown = nonEmpty.slice(0, 3).join(", ") + (nonEmpty.length > 3 ? `, … (${nonEmpty.length} tables)` : "");
        throw new Error(`the database already holds data (${shown}); restore --force replaces all of it`);
      }
      await dropSchemaObjects(client);
      await ensureMigrationsTable(client);
      for (const m of known) if (inBackup.has(m.name)) await applyMigration(client, m);
      progress(`restore: schema at the backup's level (${header.migrations.length} migrations)`);

      const loaded = await loadTables(client, file, header, progress);
      await setSequences(client, header);

      const appliedAfter: string[] = [];
      for (const m of known) {
        if (inBackup.has(m.name)) continue;
        try {
          await applyMigration(client, m);
        } catch (err) {
          throw new Error(`migration ${m.name} failed on the restored data: ${(err as Error).message}`);
        }
        appliedAfter.push(m.name);
        progress(`restore: applied migration ${m.name}`);
      }
      await client.query("COMMIT");
      return { ...loaded, backupMigrations: header.migrations.length, appliedAfter, replacedData: nonEmpty.length > 0 };
    } catch (err) {
      await client.query("ROLLBACK").catch(() => {});
      throw err;
    }
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => {});
    await client.end().catch(() => {});
  }
}

/** A restore under a running Driftwatch would pull the tables from under it. */
async function refuseIfOthersConnected(client: pg.Client) {
  const r = await client.query<{ n: number; apps: string | null }>(
    `SELECT count(*)::int AS n, string_agg(DISTINCT nullif(application_name, ''), ', ') AS apps FROM pg_stat_activity
     WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
  );
  const { n, apps } = r.rows[0]!;
  if (n > 0) {
    throw new Error(`${n} other connection${n === 1 ? " is" : "s are"} open on this database${apps ? ` (${apps})` : ""}: stop driftwatch start and worker before restoring`);
  }
}

async function loadTables(client: pg.Client, file: string, header: BackupHeader, progress: (line: string) => void) {
  let copy: ReturnType<typeof copyFrom> | null = null;
  let failure: Error | null = null;
  let tables = 0;
  let rows = 0;
  let seen = 0;
  let nextReport = PROGRESS_EVERY_ROWS;
  try {
    for await (const record of readBackupFile(file)) {
      switch (record.kind) {
        case "header":
          if (JSON.stringify(record.header) !== JSON.stringify(header)) throw new BackupFileError("the backup file changed while it was being restored");
          break;
        case "table": {
          const exists = await client.query<{ present: boolean }>("SELECT to_regclass($1) IS NOT NULL AS present", [quoteIdent(record.name)]);
          if (!exists.rows[0]!.present) throw new Error(`the backup's table ${record.name} does not exist at the backup's migration level`);
          copy = client.query(copyFrom(`COPY ${quoteIdent(record.name)} (${record.columns.map(quoteIdent).join(", ")}) FROM STDIN`));
          copy.on("error", (err: Error) => (failure ??= err));
          seen = 0;
          nextReport = PROGRESS_EVERY_ROWS;
          break;
        }
        case "rows":
          if (failure) throw failure;
          if (!copy!.write(record.data)) await once(copy!, "drain");
          seen += record.rows;
          if (seen >= nextReport) {
            progress(`restore: ${record.name}: ${seen.toLocaleString("en")} rows so far`);
            nextReport += PROGRESS_EVERY_ROWS;
          }
          break;
        case "end": {
          const stream = copy!;
          copy = null;
          if (failure) throw failure;
          const finished = once(stream, "finish");
          stream.end();
          await finished;
          if (stream.rowCount !== record.rows) throw new Error(`table ${record.name}: loaded ${stream.rowCount} rows, the backup has ${record.rows}`);
          tables++;
          rows += record.rows;
          progress(`restore: ${record.name}: ${rowsText(record.rows)}`);
          break;
        }
        case "done":
          break;
      }
    }
  } catch (err) {
    if (copy) (copy as { destroy: (e?: Error) => void }).destroy(err as Error);
    throw failure && !(err instanceof BackupFileError) ? describeCopyError(failure) : err;
  }
  return { tables, rows };
}

function describeCopyError(err: Error) {
  const e = err as Error & { where?: string };
  return new Error(`loading the backup failed: ${e.message}${e.where ? ` (${e.where.split("\n")[0]})` : ""}`);
}

async function setSequences(client: pg.Client, header: BackupHeader) {
  for (const s of header.sequences) {
    const name = quoteIdent(s.name);
    const exists = await client.query<{ present: boolean }>("SELECT to_regclass($1) IS NOT NULL AS present", [name]);
    if (!exists.rows[0]!.present) continue;
    await client.query("SELECT setval($1::regclass, $2::bigint, $3)", [name, s.last_value, s.is_called]);
  }
}
