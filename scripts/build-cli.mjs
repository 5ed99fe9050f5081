// The command line runs compiled: cli/index.ts and everything of ours it
// imports are bundled by esbuild into .driftwatch-cli/<hash>/, packages stay
// in node_modules. bin/driftwatch.mjs asks cliEntry() for the bundle; it is
// rebuilt only when the content of one of its input files changed.
//
// Kept free of heavy imports: the unchanged case (the common one) only reads
// and hashes the inputs listed by the last build.
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const OUT = path.join(ROOT, ".driftwatch-cli");
const STATE = path.join(OUT, "build.json");
const ENTRY = "cli/index.ts";
/** lib/server/route-modules.ts loads API route files by path; the bundle gets a static table instead. */
const ROUTE_MODULES = "lib/server/route-modules.ts";
/** Older builds are kept this long: a running server may still load a chunk from its own. */
const KEEP_OLD_BUILDS_MS = 24 * 60 * 60 * 1000;

/** `app/**∕route.ts`, sorted: a new route file changes the bundle without touching an input. */
function routeFiles() {
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (entry.name === "route.ts") found.push(rel);
    }
  };
  walk("app");
  return found.sort();
}

/** What decides the output besides the inputs' content: this script, esbuild, the route files. */
function recipe() {
  let esbuildVersion = "?";
  try {
    esbuildVersion = JSON.parse(readFileSync(path.join(ROOT, "node_modules/esbuild/package.json"), "utf8")).version;
  } catch {
    /* the build itself will say esbuild is missing */
  }
  return [readFileSync(fileURLToPath(import.meta.url), "utf8"), esbuildVersion, routeFiles().join("\n"), readFileSync(path.join(ROOT, "tsconfig.json"), "utf8")].join("\0");
}

/** The hash of the recipe and of every input's path and content; null when an input is gone. */
function contentHash(inputs) {
  const hash = createHash("sha256").update(recipe());
  for (const rel of inputs) {
    let content;
    try {
      content = readFileSync(path.join(ROOT, rel));
    } catch {
      return null;
    }
    hash.update("\0" + rel + "\0").update(content);
  }
  return hash.digest("hex").slice(0, 16);
}

function readState() {
  try {
    return JSON.parse(readFileSync(STATE, "utf8"));
  } catch {
    return null;
  }
}

/** A module replacing lib/server/route-modules.ts: every route file behind a literal import(), so esbuild compiles each into its own chunk. */
function routeTableModule() {
  const entries = routeFiles().map((rel) => `  ${JSON.stringify(rel)}: () => import(${JSON.stringify("./" + rel)}),`);
  return [
    'import path from "node:path";',
    "const table = {",
    ...entries,
    "};",
    "export function importRouteModule(file) {",
    "  const load = table[path.relative(ROOT_DIR, file).split(path.sep).join(\"/\")];",
    "  if (!load) return Promise.reject(new Error(`no compiled route module for ${file}`));",
    "  return load();",
    "}",
  ].join("\n");
}

/**
 * Our sources name their own place with import.meta.dirname (the checkout's root, the
 * migrations): in the bundle that would be the chunk's folder, so each use is rewritten to the
 * source file's folder, found from the chunk's (every chunk sits in .driftwatch-cli/<hash>/).
 */
function sourcePlacePlugin() {
  return {
    name: "driftwatch-source-place",
    setup(build) {
      build.onResolve({ filter: /route-modules(\.ts)?$/ }, (args) => {
        const resolved = path.resolve(args.resolveDir, args.path.replace(/^@\//, ROOT + "/"));
        const rel = path.relative(ROOT, resolved.endsWith(".ts") ? resolved : resolved + ".ts");
        return rel === ROUTE_MODULES ? { path: path.join(ROOT, ROUTE_MODULES), namespace: "driftwatch-routes" } : undefined;
      });
      // next-auth imports `next/server` as a bundler would, which Node's ESM loader refuses: it is
      // compiled into the bundle, where the rule below fixes those imports.
      build.onResolve({ filter: /^next-auth(?:\/|$)/ }, (args) => ({ path: fileURLToPath(import.meta.resolve(args.path)) }));
      // A package without an `exports` map (next) is imported by file in ESM: `next/headers` → `next/headers.js`.
      build.onResolve({ filter: /^(?:@[^/]+\/)?[^@./][^/]*\/./ }, (args) => {
        if (args.path.startsWith("@/")) return undefined;
        if (resolves(args.path)) return undefined;
        return resolves(args.path + ".js") ? { path: args.path + ".js", external: true } : undefined;
      });
      build.onLoad({ filter: /.*/, namespace: "driftwatch-routes" }, () => ({ contents: routeTableModule(), loader: "js", resolveDir: ROOT }));
      build.onLoad({ filter: /\.tsx?$/ }, (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const source = readFileSync(args.path, "utf8");
        if (!source.includes("import.meta.dirname")) return undefined;
        const dir = path.relative(ROOT, path.dirname(args.path)).split(path.sep).join("/");
        return { contents: source.replaceAll("import.meta.dirname", `__dwPath.join(ROOT_DIR, ${JSON.stringify(dir)})`), loader: args.path.endsWith(".tsx") ? "tsx" : "ts" };
      });
    },
  };
}

/** Whether Node's ESM resolution finds a file for the specifier (it names one even when it is missing). */
function resolves(specifier) {
  try {
    const url = import.meta.resolve(specifier);
    return !url.startsWith("file:") || statSync(fileURLToPath(url)).isFile();
  } catch {
    return false;
  }
}

async function build(state) {
  const esbuild = await import("esbuild");
  mkdirSync(OUT, { recursive: true });
  const staging = path.join(OUT, `.building-${process.pid}-${randomBytes(4).toString("hex")}`);
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [ENTRY],
    outdir: staging,
    entryNames: "[name]",
    chunkNames: "chunk-[hash]",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    tsconfig: path.join(ROOT, "tsconfig.json"),
    metafile: true,
    logLevel: "silent",
    legalComments: "none",
    banner: {
      // ROOT_DIR: the checkout, two folders above every output file.
      js: 'import __dwPath from "node:path"; const ROOT_DIR = __dwPath.resolve(import.meta.dirname, "../..");',
    },
    plugins: [sourcePlacePlugin()],
  });
  const inputs = Object.keys(result.metafile.inputs)
    .filter((p) => !p.includes("node_modules/") && !p.includes(":"))
    .sort();
  const hash = contentHash(inputs);
  const dir = path.join(OUT, hash);
  if (existsSync(dir)) rmSync(staging, { recursive: true, force: true });
  else renameSync(staging, dir);
  const tmp = `${STATE}.${process.pid}`;
  writeFileSync(tmp, JSON.stringify({ hash, inputs }) + "\n");
  renameSync(tmp, STATE);
  pruneOldBuilds(hash, state);
  return path.join(dir, "index.js");
}

function pruneOldBuilds(current) {
  for (const name of readdirSync(OUT)) {
    if (name === current || name === "build.json") continue;
    const p = path.join(OUT, name);
    try {
      if (Date.now() - statSync(p).mtimeMs > KEEP_OLD_BUILDS_MS) rmSync(p, { recursive: true, force: true });
    } catch {
      /* another process pruned it */
    }
  }
}

/** The compiled command line's entry (a file: URL), built first when its inputs changed. */
export async function cliEntry({ force = false } = {}) {
  const state = readState();
  if (!force && state?.hash && contentHash(state.inputs) === state.hash) {
    const entry = path.join(OUT, state.hash, "index.js");
    if (existsSync(entry)) return pathToFileURL(entry).href;
  }
  return pathToFileURL(await build(state)).href;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  const entry = await cliEntry({ force: process.argv.includes("--force") });
  console.log(`${path.relative(ROOT, fileURLToPath(entry))} (${Date.now() - started} ms)`);
}
