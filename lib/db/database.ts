// Which PostgreSQL to use: DATABASE_URL when set, else the embedded server
// under the data directory (started, or adopted when already running).
import type { Config } from "@/lib/config";
import { startEmbeddedPostgres } from "./embedded";

export type DatabaseHandle = {
  url: string;
  embedded: boolean;
  /** True when the embedded server was already running, started by another process. */
  adopted: boolean;
  /** Stops the embedded server if this handle owns it; a no-op for external databases. */
  stop: () => Promise<void>;
};

export async function openDatabase(
  config: Pick<Config, "databaseUrl" | "dataDir">,
  opts: { log?: (line: string) => void; leaveAdoptedRunning?: boolean } = {},
): Promise<DatabaseHandle> {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: false, adopted: false, stop: async () => {} };
  const pg = await startEmbeddedPostgres(config.dataDir, { log: opts.log });
  const ownsIt = !(pg.adopted && opts.leaveAdoptedRunning);
  return { url: pg.url, embedded: true, adopted: pg.adopted, stop: ownsIt ? pg.stop : async () => {} };
}
