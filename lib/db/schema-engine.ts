// Offline Prisma Migrate for *creating* migrations: @prisma/schema-engine-wasm
// driven through adapter-pg (the native schema engine cannot be downloaded
// here). Only `npm run db:migration` uses this; start-up uses lib/db/migrate.ts.
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { randomUUID } from "node:crypto";
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlMigrationAwareDriverAdapterFactory,
} from "@prisma/driver-adapter-utils";
import type { SchemaEngine } from "@prisma/schema-engine-wasm";

type WasmModule = typeof import("@prisma/schema-engine-wasm") & { __wbg_set_wasm: (exports: unknown) => void };
const require = createRequire(import.meta.url);
const filters = { externalTables: [] as string[], externalEnums: [] as string[] };

async function loadWasm(): Promise<WasmModule> {
  // The package has no ./package.json export and its loader assumes a bundler; wire it by hand for Node 20.
  const dir = path.dirname(require.resolve("@prisma/schema-engine-wasm"));
  const bg = (await import(path.join(dir, "schema_engine_bg.js"))) as WasmModule;
  const wasm = new WebAssembly.Module(await readFile(path.join(dir, "schema_engine_bg.wasm")));
  const instance = new WebAssembly.Instance(wasm, { "./schema_engine_bg.js": bg as unknown as WebAssembly.ModuleImports });
  bg.__wbg_set_wasm(instance.exports);
  (instance.exports as { __wbindgen_start: () => void }).__wbindgen_start();
  return bg;
}

/** adapter-pg factory usable by the schema engine, with three workarounds (each commented below). */
async function pgMigrateFactory(url: string): Promise<SqlMigrationAwareDriverAdapterFactory> {
  const pgModule = (await import("pg")).default as unknown as {
    Result: { prototype: { addFields: (f: { dataTypeID: number }[]) => void; __char18?: boolean } };
  };
  const proto = pgModule.Result.prototype;
  if (!proto.__char18) {
    // adapter-pg cannot map Postgres' internal "char" (OID 18) read from pg_catalog: report it as text.
    const orig = proto.addFields;
    proto.addFields = function (fields) {
      for (const f of fields) if (f.dataTypeID === 18) f.dataTypeID = 25;
      return orig.call(this, fields);
    };
    proto.__char18 = true;
  }
  const { PrismaPg } = await import("@prisma/adapter-pg");
  const { default: pg } = await import("pg");
  const u = new URL(url);
  // Discrete fields, not connectionString: pg lets connectionString override `database` for the shadow pool.
  const config = {
    host: u.hostname, port: Number(u.port || 5432), user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password) || undefined, database: decodeURIComponent(u.pathname.slice(1)),
  };
  class PrismaPgMigrate extends PrismaPg {
    override async connectToShadowDb() {
      const main = await this.connect();
      const database = `prisma_migrate_shadow_db_${randomUUID()}`;
      await main.executeScript(`CREATE DATABASE "${database}"`);
      const pool = new pg.Pool({ ...config, database });
      const shadow = await new PrismaPg(pool, { disposeExternalPool: true }).connect();
      // adapter-pg's executeScript splits a script at every ";", even inside a function's body ($$ … $$):
      // migrations are sent whole, as `driftwatch migrate` sends them.
      shadow.executeScript = async (script: string) => void (await pool.query(script));
      const disposeShadow = shadow.dispose.bind(shadow);
      // Close the shadow pool before dropping its database.
      shadow.dispose = async () => {
        await disposeShadow();
        await main.executeScript(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
        await main.dispose();
      };
      return shadow;
    }
  }
  return new PrismaPgMigrate(config) as unknown as SqlMigrationAwareDriverAdapterFactory;
}

async function listMigrations(dir: string) {
  const lockContent = await readFile(path.join(dir, "migration_lock.toml"), "utf-8").catch(() => null);
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const migrationDirectories = [];
  for (const e of entries.filter((d) => d.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
    const content = await readFile(path.join(dir, e.name, "migration.sql"), "utf-8").then(
      (value) => ({ tag: "ok" as const, value }),
      (err: Error) => ({ tag: "error" as const, value: String(err.message) }),
    );
    migrationDirectories.push({ path: e.name, migrationFile: { path: "migration.sql", content } });
  }
  return { baseDir: dir, lockfile: { path: "migration_lock.toml", content: lockContent }, migrationDirectories, shadowDbInitScript: "" };
}

/** ~ `prisma migrate dev --create-only --name <name>`: returns the new directory, or null when the schema has no changes. */
export async function createMigration(databaseUrl: string, schemaPath: string, migrationsDir: string, name: string): Promise<string | null> {
  const wasm = await loadWasm();
  const schemaFile = { path: path.resolve(schemaPath), content: await readFile(schemaPath, "utf-8") };
  const factory = await pgMigrateFactory(databaseUrl);
  const engine: SchemaEngine = await wasm.SchemaEngine.new(
    { datamodels: [[schemaFile.path, schemaFile.content]] },
    () => {},
    bindMigrationAwareSqlAdapterFactory(factory),
  );
  try {
    const migrationsList = await listMigrations(migrationsDir);
    // devDiagnostic replays history into the shadow database and primes the engine's cache for createMigration.
    const diag = await engine.devDiagnostic({ migrationsList, filters });
    if (diag.action.tag !== "createMigration") throw new Error(`the database has drifted from the migrations: ${JSON.stringify(diag.action)}`);
    const out = await engine.createMigration({ migrationsList, schema: { files: [schemaFile] }, migrationName: name, draft: false, filters });
    if (out.migrationScript === null) return null;
    const dir = path.join(migrationsDir, out.generatedMigrationName);
    if (existsSync(dir)) throw new Error(`exists: ${dir}`);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, "migration.sql"), out.migrationScript);
    await writeFile(
      path.join(migrationsDir, "migration_lock.toml"),
      `# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "${out.connectorType}"\n`,
    );
    return dir;
  } finally {
    engine.free();
  }
}
