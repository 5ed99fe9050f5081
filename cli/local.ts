// Local administrative commands act on the database directly, as the
// workspace's owner would, and work while the server runs (the embedded
// server is adopted, not started twice).
import { loadConfig, type Config } from "@/lib/config";
import { closeDb, createDb, type Db } from "@/lib/db/client";
import { openDatabase } from "@/lib/db/database";
import { migrateDatabase } from "@/lib/db/migrate";
import { getWorkspaceByNameOrThrow } from "@/lib/services/workspaces/get-by-name";
import type { RequestCtx } from "@/lib/services/context";

export async function withLocalDb<T>(fn: (db: Db, config: Config) => Promise<T>): Promise<T> {
  const config = loadConfig(process.env);
  const handle = await openDatabase(config, { leaveAdoptedRunning: true });
  const db = createDb(handle.url, { max: 2 });
  try {
    await migrateDatabase(handle.url);
    return await fn(db, config);
  } finally {
    await closeDb(db);
    await handle.stop();
  }
}

/** A context acting as the named workspace's owner. */
export async function ownerCtx(db: Db, config: Config, workspace: string): Promise<RequestCtx> {
  const ws = await getWorkspaceByNameOrThrow(db, workspace);
  return { db, config, now: new Date(), actor: { kind: "system", workspaceId: ws.id } };
}
