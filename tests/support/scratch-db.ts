// A migrated database of its own inside the test cluster, for tests that run
// the scheduler in-process: its ticks lease every due row, so they must not
// see (or take) other tests' rows. Dropped again by `drop`.
import { randomUUID } from "node:crypto";
import { inject } from "vitest";
import { createDb, type Db } from "@/lib/db/client";
import { migrateDatabase } from "@/lib/db/migrate";
import { testDb } from "./api";

export type ScratchDb = { db: Db; url: string; drop: () => Promise<void> };

export async function createScratchDb(prefix: string): Promise<ScratchDb> {
  const name = `${prefix}_${randomUUID().slice(0, 8)}`.replace(/[^a-z0-9_]/g, "_");
  await testDb().$executeRawUnsafe(`CREATE DATABASE "${name}"`);
  const url = new URL(inject("databaseUrl"));
  url.pathname = `/${name}`;
  await migrateDatabase(url.toString());
  const db = createDb(url.toString(), { max: 4 });
  return {
    db,
    url: url.toString(),
    drop: async () => {
      await db.$disconnect();
      await testDb().$executeRawUnsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}
