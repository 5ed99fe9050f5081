// The command line runs compiled: cli/index.ts and everything of ours it
// imports are bundled by esbuild into .driftwatch-cli/<hash>/, packages stay
// in node_modules. bin/driftwatch.mjs asks cliEntry() for the bundle; it is
// rebuilt only when the content of one of its input files changed.
//
// Kept free of heavy imports: the unchanged case (the common one) only reads
// and hashes the inputs listed by the last build.
//
// Where the checkout is not writable (an image whose code belongs to another
// user), a bundle is built under the temporary folder instead.
import { createHash, randomBytes } from "node:crypto";
import { accessSync, constants, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const OUT_DIRS = [
  path.join(ROOT, ".driftwatch-cli"),
  path.join(os.tmpdir(), `driftwatch-cli-${process.getuid?.() ?? "user"}-${createHash("sha256").update(ROOT).digest("hex").slice(0, 12)}`),
];
const ENTRY = "cli/index.ts";
/** Older builds are kept this long: a running server may still load a chunk from its own. */
const KEEP_OLD_BUILDS_MS = 24 * 60 * 60 * 1000;

/** What decides the output besides the inputs' content: the checkout's place, this script, the packages (next-auth is bundled). */
function recipe() {
  let esbuildVersion = "?";
  try {
    esbuildVersion = JSON.parse(readFileSync(path.join(ROOT, "node_modules/esbuild/package.json"), "utf8")).version;
  } catch {
    /* the build itself will say esbuild is missing */
  }
  let lock = "";
  try {
    lock = readFileSync(path.join(ROOT, "package-lock.json"), "utf8");
  } catch {
    /* no lock file: packages as installed */
  }
  return [ROOT, readFileSync(fileURLToPath(import.meta.url), "utf8"), esbuildVersion, lock, readFileSync(path.join(ROOT, "tsconfig.json"), "utf8")].join("\0");
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

function readState(out) {
  try {
    return JSON.parse(readFileSync(path.join(out, "build.json"), "utf8"));
  } catch {
    return null;
  }
}

function writable(dir) {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** What plain bundling gets wrong for our sources, put right. */
function driftwatchPlugin() {
  return {
    name: "driftwatch",
    setup(build) {
      // next-auth imports `next/server` as a bundler would, which Node's ESM loader refuses: it is
      // compiled into the bundle, where the rule below fixes those imports.
      build.onResolve({ filter: /^next-auth(?:\/|$)/ }, (args) => ({ path: fileURLToPath(import.meta.resolve(args.path)) }));
      // A package without an `exports` map (next) is imported by file in ESM: `next/headers` → `next/headers.js`.
      build.onResolve({ filter: /^(?:@[^/]+\/)?[^@./][^/]*\/./ }, (args) => {
        if (args.path.startsWith("@/")) return undefined;
        if (resolves(args.path)) return undefined;
        return resolves(args.path + ".js") ? { path: args.path + ".js", external: true } : undefined;
      });
      // Our sources name their own place with import.meta.dirname (the checkout's root, the
      // migrations): in the bundle that would be the chunk's folder, so each use is rewritten to the
      // source file's folder. The checkout's path is part of the hash: a moved checkout is rebuilt.
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

async function build() {
  const esbuild = await import("esbuild");
  const out = OUT_DIRS.find(writable);
  if (!out) throw new Error(`cannot compile the command line: neither ${OUT_DIRS.join(" nor ")} is writable`);
  // Outside the checkout, packages are found through a link to its node_modules.
  const modules = path.join(out, "node_modules");
  if (out !== OUT_DIRS[0] && !existsSync(modules)) symlinkSync(path.join(ROOT, "node_modules"), modules);
  const staging = path.join(out, `.building-${process.pid}-${randomBytes(4).toString("hex")}`);
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
      js: `import __dwPath from "node:path"; const ROOT_DIR = ${JSON.stringify(ROOT)};`,
    },
    plugins: [driftwatchPlugin()],
  });
  const inputs = Object.keys(result.metafile.inputs)
    .filter((p) => !p.includes("node_modules/") && !p.includes(":"))
    .sort();
  const hash = contentHash(inputs);
  const dir = path.join(out, hash);
  if (existsSync(dir)) rmSync(staging, { recursive: true, force: true });
  else renameSync(staging, dir);
  const state = path.join(out, "build.json");
  writeFileSync(`${state}.${process.pid}`, JSON.stringify({ hash, inputs }) + "\n");
  renameSync(`${state}.${process.pid}`, state);
  pruneOldBuilds(out, hash);
  return path.join(dir, "index.js");
}

function pruneOldBuilds(out, current) {
  for (const name of readdirSync(out)) {
    if (name === current || name === "build.json" || name === "node_modules") continue;
    const p = path.join(out, name);
    try {
      if (Date.now() - statSync(p).mtimeMs > KEEP_OLD_BUILDS_MS) rmSync(p, { recursive: true, force: true });
    } catch {
      /* another process pruned it */
    }
  }
}

/** The compiled command line's entry (a file: URL), built first when its inputs changed. */
export async function cliEntry({ force = false } = {}) {
  for (const out of force ? [] : OUT_DIRS) {
    const state = readState(out);
    if (!state?.hash || contentHash(state.inputs) !== state.hash) continue;
    const entry = path.join(out, state.hash, "index.js");
    if (existsSync(entry)) return pathToFileURL(entry).href;
  }
  return pathToFileURL(await build()).href;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  const entry = await cliEntry({ force: process.argv.includes("--force") });
  console.log(`${path.relative(ROOT, fileURLToPath(entry))} (${Date.now() - started} ms)`);
}
