// A migrated database of its own inside the test cluster, for tests that run
// the scheduler in-process: its ticks lease every due row, so they must not
// see (or take) other tests' rows. Dropped again by `drop`.
import { randomUUID } from "node:crypto";
import { inject } from "vitest";
import { closeDb, createDb, type Db } from "@/lib/db/client";
import { migrateDatabase } from "@/lib/db/migrate";
import { driftSettled } from "@/lib/services/drift/evaluate-workspace";
import { testDb } from "./api";

export type ScratchDb = { db: Db; url: string; drop: () => Promise<void> };

const CLOSE_WAIT_MS = 30_000;

async function sessionsOf(database: string) {
  return testDb().$queryRaw<object[]>`
    SELECT pid, state, wait_event_type, wait_event, xact_start::text, left(query, 200) AS query
    FROM pg_stat_activity WHERE datname = ${database}`;
}

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
      // A report the test recorded queued a drift evaluation in this process, which holds a transaction
      // on this pool while it reads on the pool's other connections: it ends before the pool closes.
      const workspaces = await db.$queryRaw<{ id: string }[]>`SELECT id::text AS id FROM workspaces`;
      await Promise.all(workspaces.map((w) => driftSettled(w.id, CLOSE_WAIT_MS)));
      // Ending the pool waits for every client still checked out. One that is never released must not
      // hold the suite: say which sessions hold it, then drop the database with them.
      let timer: NodeJS.Timeout | undefined;
      const closed = await Promise.race([
        closeDb(db).then(() => true),
        new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), CLOSE_WAIT_MS))),
      ]).finally(() => clearTimeout(timer));
      if (!closed) console.warn(`scratch database ${name}: its client did not close within ${CLOSE_WAIT_MS / 1000} s; its sessions: ${JSON.stringify(await sessionsOf(name))}`);
      await testDb().$executeRawUnsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}
