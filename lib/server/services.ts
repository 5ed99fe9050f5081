// The web server's shared handles: configuration and the database, opened
// once per process. `driftwatch start` exports DATABASE_URL before Next loads;
// under `next dev` the embedded server is started (or adopted) here.
import { getConfig, type Config } from "@/lib/config";
import { getDb, type Db } from "@/lib/db/client";
import { openDatabase } from "@/lib/db/database";

/** Handles shared by every request; each request reads the clock once for itself. */
export type ServerServices = { db: Db; config: Config };

const g = globalThis as unknown as { __driftwatchServices?: Promise<ServerServices> };

export function getServerServices(): Promise<ServerServices> {
  g.__driftwatchServices ??= (async () => {
    const config = getConfig();
    let url = config.databaseUrl;
    if (!url) {
      const handle = await openDatabase(config, { leaveAdoptedRunning: true });
      url = handle.url;
    }
    return { db: getDb(url), config };
  })().catch((err: unknown) => {
    g.__driftwatchServices = undefined;
    throw err;
  });
  return g.__driftwatchServices;
}
