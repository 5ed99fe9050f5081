// The web app is built on demand, as `npm start` does: a fresh checkout's
// `driftwatch start` or `demo` builds it once (with the same one-line notice)
// instead of refusing to start.
import { spawnSync } from "node:child_process";
import path from "node:path";

/** Runs scripts/build-if-stale.mjs, which returns at once when the build matches its sources. */
export function buildWebAppIfStale(root: string): void {
  const r = spawnSync(process.execPath, [path.join(root, "scripts/build-if-stale.mjs")], { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
  if (r.error) throw new Error(`building the web app: ${r.error.message}`);
  if (r.status !== 0) throw new Error("building the web app failed; its log is named above");
}
