// The demo's upstream: Debian's docker-registry on loopback, its images kept
// under the demo's data directory, and a pusher that needs no Docker (blob
// uploads, then the manifest PUT).
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { gzipSync } from "node:zlib";

export const REGISTRY_BINARY = process.env.DOCKER_REGISTRY_BIN ?? "/usr/bin/docker-registry";

const OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json";

export type DemoRegistry = {
  host: string;
  push(name: string, tag: string): Promise<string>;
  /** The manifest digest of a pushed tag, or null when the registry does not hold it. */
  digestOf(name: string, tag: string): Promise<string | null>;
  stop(): Promise<void>;
};

export function registryInstalled(): boolean {
  return existsSync(REGISTRY_BINARY);
}

export async function startDemoRegistry(dir: string, port: number): Promise<DemoRegistry> {
  await mkdir(path.join(dir, "data"), { recursive: true });
  const config = path.join(dir, "config.yml");
  await writeFile(
    config,
    [
      "version: 0.1",
      "log:",
      "  level: error",
      "  accesslog:",
      "    disabled: true",
      "storage:",
      "  filesystem:",
      `    rootdirectory: ${JSON.stringify(path.join(dir, "data"))}`,
      "http:",
      `  addr: 127.0.0.1:${port}`,
      "  secret: driftwatch-demo",
      "",
    ].join("\n"),
  );
  const child = spawn(REGISTRY_BINARY, ["serve", config], { stdio: ["ignore", "ignore", "pipe"] });
  let errText = "";
  child.stderr!.setEncoding("utf8").on("data", (c: string) => void (errText = (errText + c).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  await waitUntilUp(url, child, () => errText);
  return {
    host: `127.0.0.1:${port}`,
    push: (name, tag) => pushImage(url, name, tag),
    digestOf: async (name, tag) => {
      const res = await fetch(`${url}/v2/${name}/manifests/${tag}`, { method: "HEAD", headers: { accept: OCI_MANIFEST } });
      return res.status === 200 ? res.headers.get("docker-content-digest") : null;
    },
    stop: () => stopChild(child),
  };
}

async function waitUntilUp(url: string, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`docker-registry stopped (${child.exitCode}): ${lastLine(stderr())}`);
    const ok = await fetch(`${url}/v2/`, { signal: AbortSignal.timeout(1000) }).then((r) => r.status === 200, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill("SIGKILL");
  throw new Error(`docker-registry did not answer on ${url}: ${lastLine(stderr())}`);
}

function lastLine(text: string): string {
  return text.trim().split("\n").pop() ?? "";
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}

const sha256 = (bytes: Buffer) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

async function pushBlob(url: string, name: string, content: Buffer): Promise<string> {
  const digest = sha256(content);
  const start = await fetch(`${url}/v2/${name}/blobs/uploads/`, { method: "POST" });
  await start.body?.cancel();
  const location = start.headers.get("location");
  if (start.status !== 202 || !location) throw new Error(`blob upload to ${name} not started: ${start.status}`);
  const put = new URL(location, url);
  put.searchParams.set("digest", digest);
  const done = await fetch(put, { method: "PUT", body: new Uint8Array(content), headers: { "content-type": "application/octet-stream" } });
  await done.body?.cancel();
  if (done.status !== 201) throw new Error(`blob upload to ${name} failed: ${done.status}`);
  return digest;
}

/** One single-platform linux/amd64 image; returns its manifest digest. */
async function pushImage(url: string, name: string, tag: string): Promise<string> {
  // The registry stores blobs opaquely: a layer need only be unique per image.
  const layerText = Buffer.from(`driftwatch demo ${name}:${tag}\n`);
  const layer = gzipSync(layerText);
  const layerDigest = await pushBlob(url, name, layer);
  const config = Buffer.from(JSON.stringify({ architecture: "amd64", os: "linux", config: {}, rootfs: { type: "layers", diff_ids: [sha256(layerText)] } }));
  const configDigest = await pushBlob(url, name, config);
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: OCI_MANIFEST,
      config: { mediaType: "application/vnd.oci.image.config.v1+json", digest: configDigest, size: config.length },
      layers: [{ mediaType: "application/vnd.oci.image.layer.v1.tar+gzip", digest: layerDigest, size: layer.length }],
    }),
  );
  const res = await fetch(`${url}/v2/${name}/manifests/${tag}`, { method: "PUT", body: new Uint8Array(manifest), headers: { "content-type": OCI_MANIFEST } });
  await res.body?.cancel();
  if (res.status !== 201) throw new Error(`manifest ${name}:${tag} not accepted: ${res.status}`);
  return sha256(manifest);
}

export { demoImageDigest } from "@/lib/domain/demo/plan";
