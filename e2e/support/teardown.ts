import { rm } from "node:fs/promises";
import path from "node:path";
import { stopEmbeddedPostgres } from "../../lib/db/embedded";

export default async function teardown() {
  const dir = process.env.DW_E2E_DIR;
  if (!dir) return;
  // The run's own PostgreSQL (under the server's data directory): Playwright may tear down before the
  // server's own shutdown has stopped it, and a server whose directory is gone outlives the run.
  await stopEmbeddedPostgres(path.join(dir, "data"), { log: (line) => console.warn(line) });
  await rm(dir, { recursive: true, force: true });
}
