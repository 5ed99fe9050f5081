// Applies prisma/migrations/*/migration.sql in order, each inside a
// transaction, recorded in _prisma_migrations exactly as Prisma records them
// (so `prisma migrate deploy` elsewhere agrees). A Postgres advisory lock makes
// concurrent starts wait for each other; a failing migration rolls back whole.
import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";

export const MIGRATION_LOCK_KEY = 72_707_369; // arbitrary, constant: "driftwatch migrations"

export type MigrationResult = { applied: string[]; alreadyApplied: number };

export const MIGRATIONS_DIR = path.resolve(import.meta.dirname, "../../prisma/migrations");

export type Migration = { name: string; sql: string; checksum: string };

/** The migrations this build knows, in the order they apply. */
export async function listMigrations(dir: string = MIGRATIONS_DIR): Promise<Migration[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    }),
  );
}

export async function migrateDatabase(databaseUrl: string, opts: { dir?: string; log?: (line: string) => void } = {}): Promise<MigrationResult> {
  const log = opts.log ?? (() => {});
  const migrations = await listMigrations(opts.dir ?? MIGRATIONS_DIR);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    await ensureMigrationsTable(client);
    const done = await client.query<{ migration_name: string; checksum: string; finished_at: Date | null; rolled_back_at: Date | null }>(
      `SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"`,
    );
    const finished = new Map(done.rows.filter((r) => r.finished_at && !r.rolled_back_at).map((r) => [r.migration_name, r.checksum]));
    const unfinished = done.rows.filter((r) => !r.finished_at && !r.rolled_back_at);
    if (unfinished.length > 0) {
      throw new Error(`migration ${unfinished[0]!.migration_name} was left unfinished by another tool; resolve it before starting`);
    }
    const known = new Set(migrations.map((m) => m.name));
    const unknown = [...finished.keys()].filter((n) => !known.has(n));
    if (unknown.length > 0) {
      throw new Error(`the database has migrations this version does not know (${unknown.join(", ")}): it was upgraded by a newer Driftwatch`);
    }
    const applied: string[] = [];
    for (const m of migrations) {
      const recorded = finished.get(m.name);
      if (recorded !== undefined) {
        if (recorded !== m.checksum) log(`warning: migration ${m.name} was edited after it was applied`);
        continue;
      }
      await client.query("BEGIN");
      try {
        await applyMigration(client, m);
        await client.query("COMMIT");
      } catch (err) {
        await client.query("ROLLBACK").catch(() => {});
        throw new Error(`migration ${m.name} failed and was rolled back: ${(err as Error).message}`);
      }
      applied.push(m.name);
      log(`applied migration ${m.name}`);
    }
    return { applied, alreadyApplied: finished.size };
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => {});
    await client.end().catch(() => {});
  }
}

export async function ensureMigrationsTable(client: pg.ClientBase) {
  await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum" VARCHAR(64) NOT NULL,
    "finished_at" TIMESTAMPTZ,
    "migration_name" VARCHAR(255) NOT NULL,
    "logs" TEXT,
    "rolled_back_at" TIMESTAMPTZ,
    "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count" INTEGER NOT NULL DEFAULT 0)`);
}

/** Run one migration and record it, on a client already inside a transaction (the caller commits). */
export async function applyMigration(client: pg.ClientBase, m: Migration) {
  await client.query(m.sql);
  await client.query(
    `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
     VALUES ($1, $2, now(), $3, now(), 1)`,
    [randomUUID(), m.checksum, m.name],
  );
}
