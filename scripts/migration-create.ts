// npm run db:migration -- <name>: diff prisma/schema.prisma against the
// migrations so far and write the next migration, offline. It replays the
// migrations into a scratch embedded PostgreSQL, so no real data is touched.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startEmbeddedPostgres } from "@/lib/db/embedded";
import { migrateDatabase, MIGRATIONS_DIR } from "@/lib/db/migrate";
import { createMigration } from "@/lib/db/schema-engine";

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("usage: npm run db:migration -- <name> (lower-case letters, digits and _)");
  process.exit(2);
}
const scratch = await mkdtemp(path.join(os.tmpdir(), "driftwatch-migration-"));
const pg = await startEmbeddedPostgres(scratch);
try {
  await migrateDatabase(pg.url);
  const dir = await createMigration(pg.url, path.resolve("prisma/schema.prisma"), MIGRATIONS_DIR, name);
  console.log(dir ? `Created ${path.relative(process.cwd(), dir)}/migration.sql` : "No schema changes.");
} catch (err) {
  console.error(`db:migration failed: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await pg.stop();
  await rm(scratch, { recursive: true, force: true });
}
process.exit();
