// `driftwatch start` and `demo` (and so `npm start`) build the web app only when the content of its sources changed
// since the last build (a hash kept beside the build, so a fresh checkout's
// timestamps or a touched file do not count); `npm run build` (--force) always
// builds. Next.js's own log goes to a file, named when the build fails.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { accessSync, closeSync, constants, existsSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const distDir = path.join(root, process.env.NEXT_DIST_DIR || ".next");
const hashFile = path.join(distDir, "driftwatch-sources.sha256");
const SOURCES = ["app", "lib", "components", "public", "proxy.ts", "next.config.ts", "package.json", "package-lock.json", "tsconfig.json"];

/** Every source file under `rel`, sorted; tests and dot-folders are not part of the app. */
function files(rel, out = []) {
  const entries = readdirSync(path.join(root, rel), { withFileTypes: true });
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    const child = `${rel}/${entry.name}`;
    if (entry.isDirectory()) files(child, out);
    else if (!/\.test\.tsx?$/.test(entry.name)) out.push(child);
  }
  return out;
}

function writable(dir) {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function sourcesHash() {
  const hash = createHash("sha256").update(process.env.NEXT_DIST_DIR || ".next");
  for (const source of SOURCES) {
    const abs = path.join(root, source);
    if (!existsSync(abs)) continue;
    const list = statSync(abs).isDirectory() ? files(source) : [source];
    for (const rel of list) hash.update("\0" + rel + "\0").update(readFileSync(path.join(root, rel)));
  }
  return hash.digest("hex");
}

const force = process.argv.includes("--force");
const current = sourcesHash();
const hasBuild = existsSync(path.join(distDir, "BUILD_ID"));
const built = hasBuild && existsSync(hashFile) ? readFileSync(hashFile, "utf8").trim() : null;
if (!force && built === current) process.exit(0);
// An image's code belongs to another user than the one serving it: its build is the one it ships with.
if (!force && hasBuild && !writable(distDir)) process.exit(0);

const dataDir = path.resolve(root, process.env.DRIFTWATCH_DATA_DIR || ".driftwatch");
mkdirSync(dataDir, { recursive: true });
const logFile = path.join(dataDir, "next-build.log");
const why = force ? "" : built === null ? " (first start)" : " (sources changed)";
process.stdout.write(`Building the web app${why}… `);
const started = Date.now();
const fd = openSync(logFile, "w");
const next = path.join(root, "node_modules", "next", "dist", "bin", "next");
const r = spawnSync(process.execPath, [next, "build"], { cwd: root, stdio: ["ignore", fd, fd], env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
closeSync(fd);
if (r.status !== 0) {
  process.stdout.write("failed.\n");
  const tail = readFileSync(logFile, "utf8").trimEnd().split("\n").slice(-20).join("\n");
  process.stderr.write(`${tail}\n\nThe whole build log: ${logFile}\n`);
  process.exit(r.status ?? 1);
}
writeFileSync(hashFile, current + "\n");
process.stdout.write(`done in ${Math.round((Date.now() - started) / 1000)} s (log: ${path.relative(process.cwd(), logFile) || logFile}).\n`);
