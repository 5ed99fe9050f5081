// `npm start` builds the web app only when the sources are newer than the
// last build; `npm run build` (--force) always builds.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const buildId = path.join(root, process.env.NEXT_DIST_DIR || ".next", "BUILD_ID");
const SOURCES = ["app", "lib", "components", "public", "proxy.ts", "next.config.ts", "package.json", "package-lock.json", "tsconfig.json"];

function newest(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const entry of readdirSync(p)) {
    if (entry === "node_modules" || entry.startsWith(".")) continue;
    max = Math.max(max, newest(path.join(p, entry)));
  }
  return max;
}

const force = process.argv.includes("--force");
const built = existsSync(buildId) ? statSync(buildId).mtimeMs : 0;
const sources = Math.max(...SOURCES.map((s) => newest(path.join(root, s))));
if (!force && built > sources) process.exit(0);
console.log(force ? "Building the web app…" : "Building the web app (first start, or sources changed)…");
const next = path.join(root, "node_modules", "next", "dist", "bin", "next");
const r = spawnSync(process.execPath, [next, "build"], { cwd: root, stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
process.exit(r.status ?? 1);
