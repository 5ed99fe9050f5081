// backup and restore: a logical copy of the whole database (embedded or
// DATABASE_URL, the same rule as `start`), progress on stderr.
import { existsSync } from "node:fs";
import { access, constants, stat } from "node:fs/promises";
import path from "node:path";
import type { Command } from "commander";
import { loadConfig } from "@/lib/config";
import { createBackup } from "@/lib/db/backup/create-backup";
import { BackupFileError } from "@/lib/db/backup/format";
import { checkBackupFile, restoreBackup } from "@/lib/db/backup/restore-backup";
import { openDatabase } from "@/lib/db/database";
import { printJson } from "../output";

const progressLine = (quiet: boolean | undefined) => (quiet ? undefined : (line: string) => void process.stderr.write(line + "\n"));

const kib = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`);

export function registerBackupCommands(program: Command) {
  program
    .command("backup")
    .description("local: write a consistent backup of the whole database to <file> (works while the server runs)")
    .argument("<file>", "where to write the backup (gzip; replaced if it exists)")
    .option("--quiet", "no progress on stderr")
    .option("--json", "print JSON")
    .action(async (file: string, opts: { quiet?: boolean; json?: boolean }) => {
      const config = loadConfig(process.env);
      if (!config.databaseUrl && !existsSync(path.join(config.dataDir, "pg", "PG_VERSION"))) {
        throw new Error(`there is no embedded database in ${path.resolve(config.dataDir)} (set DRIFTWATCH_DATA_DIR, or DATABASE_URL for an external one)`);
      }
      const target = path.resolve(file);
      const handle = await openDatabase(config, { leaveAdoptedRunning: true });
      try {
        const result = await createBackup(handle.url, target, { progress: progressLine(opts.quiet) });
        if (opts.json) printJson({ file: target, ...result });
        else console.log(`Backed up ${result.tables} tables (${result.rows.toLocaleString("en")} rows, ${result.migrations} migrations) to ${target} (${kib(result.bytes)}).`);
      } finally {
        await handle.stop();
      }
    });

  program
    .command("restore")
    .description("local: restore a backup into an empty database, or replace everything with --force; the server must be stopped")
    .argument("<file>", "a file written by driftwatch backup")
    .option("--force", "replace a database that already holds data (still all or nothing)")
    .option("--check", "only read the file and check every checksum; touch no database")
    .option("--quiet", "no progress on stderr")
    .option("--json", "print JSON")
    .action(async (file: string, opts: { force?: boolean; check?: boolean; quiet?: boolean; json?: boolean }) => {
      const source = path.resolve(file);
      await access(source, constants.R_OK).catch((err: NodeJS.ErrnoException) => {
        throw new BackupFileError(`cannot read ${source}: ${err.code === "ENOENT" ? "no such file" : err.code === "EACCES" ? "permission denied" : err.message}`);
      });
      const info = await stat(source);
      if (info.isDirectory()) throw new BackupFileError(`cannot read ${source}: it is a directory`);
      if (info.size === 0) throw new BackupFileError(`${source} is empty: not a Driftwatch backup`);
      if (opts.check) {
        const checked = await checkBackupFile(source);
        if (opts.json) printJson({ file: source, ...checked.summary, created_at: checked.header.created_at, migrations: checked.header.migrations.map((m) => m.name), sections: checked.tables });
        else console.log(`${source}: a complete backup of ${checked.summary.tables} tables (${checked.summary.rows.toLocaleString("en")} rows), taken ${checked.header.created_at}.`);
        return;
      }
      const config = loadConfig(process.env);
      const handle = await openDatabase(config, { leaveAdoptedRunning: true });
      try {
        if (handle.adopted) {
          throw new Error(`the embedded database in ${path.resolve(config.dataDir)} is in use (its PostgreSQL was already running): stop driftwatch start and worker before restoring`);
        }
        const result = await restoreBackup(handle.url, source, { force: opts.force, progress: progressLine(opts.quiet) });
        if (opts.json) printJson({ file: source, ...result });
        else {
          const after = result.appliedAfter.length > 0 ? `, then applied ${result.appliedAfter.length} newer migration${result.appliedAfter.length === 1 ? "" : "s"}` : "";
          console.log(`Restored ${result.tables} tables (${result.rows.toLocaleString("en")} rows) from ${source}${after}.`);
        }
      } finally {
        await handle.stop();
      }
    });
}
