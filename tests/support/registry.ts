// A real CNCF distribution registry (Debian's `docker-registry`) on a free
// loopback port in a temp dir, for adapter tests and the benchmark. It counts
// requests from the registry's own access log, and pushes images without
// Docker: blobs by POST + PUT ?digest=, manifests by PUT.
//
// Auth, optional: `htpasswd` (Basic; one user whose bcrypt hash is a published
// Openwall crypt_blowfish test vector, so no htpasswd tool is needed) or
// `token` (Bearer, with the loopback token service in registry-token-auth.ts).
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { freePort } from "@/lib/db/free-port";
import { startTokenServer, type TokenAuthOptions, type TokenServer } from "@/tests/support/registry-token-auth";

export const REGISTRY_BINARY = process.env.DOCKER_REGISTRY_BIN ?? "/usr/bin/docker-registry";

/** The htpasswd user: password `U*U` hashes to this bcrypt test vector. */
export const HTPASSWD_USER = {
  username: "driftwatch",
  password: "U*U",
  bcrypt: "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW",
} as const;

export type RegistryAuth = { kind: "htpasswd" } | ({ kind: "token" } & TokenAuthOptions);

export type AccessLogEntry = { method: string; path: string; status: number };

export type PushOptions = {
  /** Omitted: one single-platform linux/amd64 manifest. Given: an index over these (`linux/arm64/v8`). */
  platforms?: string[];
  format?: "oci" | "docker";
  labels?: Record<string, string>;
};

export type PushedImage = {
  /** What the tag points at: the index digest, or the manifest digest for a single-platform image. */
  digest: string;
  mediaType: string;
  platforms: { platform: string; digest: string; configDigest: string }[];
};

export type TestRegistry = {
  host: string; // 127.0.0.1:port, a host[:port] for image references
  url: string; // http://127.0.0.1:port
  tokenServer: TokenServer | null;
  /** Access-log entries so far (call `syncLog` first for an exact count). */
  log: AccessLogEntry[];
  /** Waits until every request answered so far is in the access log. */
  syncLog(): Promise<void>;
  clearLog(): Promise<void>;
  pushImage(name: string, tag: string, opts?: PushOptions): Promise<PushedImage>;
  tagExisting(name: string, newTag: string, fromTag: string): Promise<string>;
  stop(): Promise<void>;
};

// --- access log --------------------------------------------------------------
const SYNC_PREFIX = "/_driftwatch_log_sync/";
const ACCESS_LINE = /^\S+ \S+ \S+ \[[^\]]+\] "(\S+) (\S+) [^"]*" (\d{3}) /;

/** One line of the registry's combined-format access log. */
export function parseAccessLogLine(line: string): AccessLogEntry | null {
  const m = ACCESS_LINE.exec(line);
  return m ? { method: m[1] ?? "", path: m[2] ?? "", status: Number(m[3]) } : null;
}

/** The kind of registry request: `tags/list`, `manifests`, `blobs`, `blobs/uploads`, `base` or `other`. */
export function requestKind(entryPath: string): string {
  const p = entryPath.split("?")[0] ?? "";
  if (p === "/v2/" || p === "/v2") return "base";
  const m = /^\/v2\/.+?\/(tags\/list|manifests|blobs\/uploads|blobs)(?:\/|$)/.exec(p);
  return m?.[1] ?? "other";
}

/** Requests matching a method and kind (`GET tags/list`, `HEAD manifests`…). */
export function countRegistryRequests(log: readonly AccessLogEntry[], method: string, kind: string): number {
  return log.filter((e) => e.method === method && requestKind(e.path) === kind).length;
}

/** `{ "GET tags/list": 1, "HEAD manifests": 3, … }`: the benchmark's request figures. */
export function summarizeRegistryRequests(log: readonly AccessLogEntry[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const e of log) {
    const key = `${e.method} ${requestKind(e.path)}`;
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}

// --- process -----------------------------------------------------------------
function configYaml(dir: string, port: number, auth: string, storageDir: string): string {
  return [
    "version: 0.1",
    "log:",
    "  level: error",
    "  accesslog:",
    "    disabled: false",
    "storage:",
    "  filesystem:",
    `    rootdirectory: ${JSON.stringify(storageDir)}`,
    "  delete:",
    "    enabled: true",
    "http:",
    `  addr: 127.0.0.1:${port}`,
    "  secret: driftwatch-test-secret",
    auth,
  ].join("\n");
}

async function waitUntilUp(url: string, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`docker-registry exited with ${child.exitCode}: ${stderr().slice(-2000)}`);
    try {
      const res = await fetch(`${url}/v2/`, { signal: AbortSignal.timeout(1000) });
      await res.body?.cancel();
      if (res.status === 200 || res.status === 401) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`docker-registry did not answer on ${url} within 15 s: ${stderr().slice(-2000)}`);
}

/** Spawns the registry on a free port; a port taken meanwhile is retried with another. */
async function spawnRegistry(dir: string, authYaml: string, storageDir: string, onEntry: (e: AccessLogEntry) => void): Promise<{ child: ChildProcess; port: number }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    await writeFile(path.join(dir, "config.yml"), configYaml(dir, port, authYaml, storageDir));
    const child = spawn(REGISTRY_BINARY, ["serve", path.join(dir, "config.yml")], { stdio: ["ignore", "pipe", "pipe"] });
    let partial = "";
    let errText = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      const lines = (partial + chunk).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) {
        const entry = parseAccessLogLine(line);
        if (entry) onEntry(entry);
      }
    });
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      errText = (errText + chunk).slice(-20_000);
    });
    try {
      await waitUntilUp(`http://127.0.0.1:${port}`, child, () => errText);
      return { child, port };
    } catch (err) {
      child.kill("SIGKILL");
      if (attempt >= 3 || !/address already in use/.test(errText)) throw err;
    }
  }
}

/**
 * Starts a registry; throws one clear line when the binary is missing.
 * `storageDir`: keep the pushed images there across runs (the benchmark's
 * cache); by default they live in the temp dir and go with `stop()`.
 */
export async function startRegistry(opts: { auth?: RegistryAuth; storageDir?: string } = {}): Promise<TestRegistry> {
  if (!existsSync(REGISTRY_BINARY)) {
    throw new Error(`docker-registry is not installed (${REGISTRY_BINARY} is missing): run \`apt-get install docker-registry\`.`);
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), "driftwatch-registry-"));
  let tokenServer: TokenServer | null = null;
  let authYaml = "";
  let pushAuthorization: (name: string) => string | null = () => null;
  if (opts.auth?.kind === "htpasswd") {
    await writeFile(path.join(dir, "htpasswd"), `${HTPASSWD_USER.username}:${HTPASSWD_USER.bcrypt}\n`);
    authYaml = `auth:\n  htpasswd:\n    realm: driftwatch-test\n    path: ${JSON.stringify(path.join(dir, "htpasswd"))}`;
    const basic = `Basic ${Buffer.from(`${HTPASSWD_USER.username}:${HTPASSWD_USER.password}`).toString("base64")}`;
    pushAuthorization = () => basic;
  } else if (opts.auth?.kind === "token") {
    const ts = await startTokenServer(opts.auth);
    tokenServer = ts;
    await writeFile(path.join(dir, "token.crt"), ts.certPem);
    authYaml = [
      "auth:",
      "  token:",
      `    realm: ${ts.realm}`,
      `    service: ${ts.service}`,
      `    issuer: ${ts.issuer}`,
      `    rootcertbundle: ${JSON.stringify(path.join(dir, "token.crt"))}`,
    ].join("\n");
    pushAuthorization = (name) => `Bearer ${ts.mint([{ type: "repository", name, actions: ["pull", "push"] }])}`;
  }

  const log: AccessLogEntry[] = [];
  const syncSeen = new Set<string>();
  const { child, port } = await spawnRegistry(dir, authYaml, opts.storageDir ?? path.join(dir, "data"), (entry) => {
    if (entry.path.startsWith(SYNC_PREFIX)) syncSeen.add(entry.path);
    else log.push(entry);
  }).catch(async (err: unknown) => {
    await tokenServer?.close();
    await rm(dir, { recursive: true, force: true });
    throw err;
  });
  const url = `http://127.0.0.1:${port}`;
  const killChild = () => child.kill("SIGKILL");
  process.once("exit", killChild);

  let syncCounter = 0;
  async function syncLog(): Promise<void> {
    const marker = `${SYNC_PREFIX}${++syncCounter}`;
    const res = await fetch(url + marker);
    await res.body?.cancel();
    const deadline = Date.now() + 5_000;
    while (!syncSeen.has(marker)) {
      if (Date.now() > deadline) throw new Error("registry access log did not catch up within 5 s");
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  const pusher = registryPusher(url, pushAuthorization);

  return {
    host: `127.0.0.1:${port}`,
    url,
    tokenServer,
    log,
    syncLog,
    async clearLog() {
      await syncLog();
      log.length = 0;
    },
    pushImage: pusher.pushImage,
    tagExisting: pusher.tagExisting,
    async stop() {
      process.removeListener("exit", killChild);
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
        if (child.exitCode === null) child.kill("SIGKILL");
      }
      await tokenServer?.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}


/** Push images to a registry at `url` without Docker (blob uploads, then the manifest PUT). */
export function registryPusher(url: string, pushAuthorization: (name: string) => string | null = () => null): Pick<TestRegistry, "pushImage" | "tagExisting"> {
  async function registryFetch(name: string, pathOrUrl: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    const authorization = pushAuthorization(name);
    if (authorization) headers.set("authorization", authorization);
    return fetch(new URL(pathOrUrl, url), { ...init, headers, redirect: "manual" });
  }

  async function pushBlob(name: string, content: Buffer): Promise<string> {
    const digest = `sha256:${createHash("sha256").update(content).digest("hex")}`;
    const start = await registryFetch(name, `/v2/${name}/blobs/uploads/`, { method: "POST" });
    await start.body?.cancel();
    const location = start.headers.get("location");
    if (start.status !== 202 || !location) throw new Error(`blob upload to ${name} not started: ${start.status}`);
    const put = new URL(location, url);
    put.searchParams.set("digest", digest);
    const done = await registryFetch(name, put.href, { method: "PUT", body: new Uint8Array(content), headers: { "content-type": "application/octet-stream" } });
    if (done.status !== 201) throw new Error(`blob upload to ${name} failed: ${done.status} ${await done.text()}`);
    await done.body?.cancel();
    return digest;
  }

  async function putManifest(name: string, reference: string, mediaType: string, bytes: Buffer): Promise<string> {
    const res = await registryFetch(name, `/v2/${name}/manifests/${reference}`, { method: "PUT", body: new Uint8Array(bytes), headers: { "content-type": mediaType } });
    if (res.status !== 201) throw new Error(`manifest PUT ${name}:${reference} failed: ${res.status} ${await res.text()}`);
    await res.body?.cancel();
    const digest = `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
    if (res.headers.get("docker-content-digest") !== digest) throw new Error(`registry digest differs from ${digest}`);
    return digest;
  }

  const types = {
    oci: {
      index: "application/vnd.oci.image.index.v1+json",
      manifest: "application/vnd.oci.image.manifest.v1+json",
      config: "application/vnd.oci.image.config.v1+json",
      layer: "application/vnd.oci.image.layer.v1.tar+gzip",
    },
    docker: {
      index: "application/vnd.docker.distribution.manifest.list.v2+json",
      manifest: "application/vnd.docker.distribution.manifest.v2+json",
      config: "application/vnd.docker.container.image.v1+json",
      layer: "application/vnd.docker.image.rootfs.diff.tar.gzip",
    },
  } as const;

  async function pushPlatform(name: string, tag: string, platform: string, o: PushOptions, reference: string | null) {
    const t = types[o.format ?? "oci"];
    const [osName = "linux", architecture = "amd64", variant] = platform.split("/");
    // The registry stores blobs opaquely: the layer needs only be unique per image.
    const layerText = Buffer.from(`driftwatch test layer ${name}:${tag} ${platform}\n`);
    const layer = gzipSync(layerText);
    const layerDigest = await pushBlob(name, layer);
    const config = Buffer.from(
      JSON.stringify({
        architecture,
        os: osName,
        ...(variant ? { variant } : {}),
        config: { Labels: o.labels ?? null },
        rootfs: { type: "layers", diff_ids: [`sha256:${createHash("sha256").update(layerText).digest("hex")}`] },
      }),
    );
    const configDigest = await pushBlob(name, config);
    const manifest = Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: t.manifest,
        config: { mediaType: t.config, digest: configDigest, size: config.length },
        layers: [{ mediaType: t.layer, digest: layerDigest, size: layer.length }],
      }),
    );
    const digest = await putManifest(name, reference ?? `sha256:${createHash("sha256").update(manifest).digest("hex")}`, t.manifest, manifest);
    return { platform, digest, configDigest, size: manifest.length, os: osName, architecture, variant };
  }

  return {
    async pushImage(name: string, tag: string, o: PushOptions = {}) {
      const t = types[o.format ?? "oci"];
      if (!o.platforms) {
        const single = await pushPlatform(name, tag, "linux/amd64", o, tag);
        return { digest: single.digest, mediaType: t.manifest, platforms: [{ platform: single.platform, digest: single.digest, configDigest: single.configDigest }] };
      }
      const parts = [];
      for (const platform of o.platforms) parts.push(await pushPlatform(name, tag, platform, o, null));
      const index = Buffer.from(
        JSON.stringify({
          schemaVersion: 2,
          mediaType: t.index,
          manifests: parts.map((p) => ({
            mediaType: t.manifest,
            digest: p.digest,
            size: p.size,
            platform: { architecture: p.architecture, os: p.os, ...(p.variant ? { variant: p.variant } : {}) },
          })),
        }),
      );
      const digest = await putManifest(name, tag, t.index, index);
      return { digest, mediaType: t.index, platforms: parts.map((p) => ({ platform: p.platform, digest: p.digest, configDigest: p.configDigest })) };
    },
    async tagExisting(name: string, newTag: string, fromTag: string) {
      const accept = [...Object.values(types.oci), ...Object.values(types.docker)].join(", ");
      const res = await registryFetch(name, `/v2/${name}/manifests/${fromTag}`, { headers: { accept } });
      if (res.status !== 200) throw new Error(`manifest ${name}:${fromTag} not found: ${res.status}`);
      const bytes = Buffer.from(await res.arrayBuffer());
      return putManifest(name, newTag, res.headers.get("content-type") ?? types.oci.manifest, bytes);
    },
  };
}

/** A fetch that refuses anything but loopback: tests never reach a real registry. */
export const loopbackOnlyFetch: typeof fetch = (input, init) => {
  const href = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  const { hostname } = new URL(href);
  if (hostname !== "127.0.0.1" && hostname !== "localhost" && hostname !== "[::1]") {
    return Promise.reject(new Error(`test tried to leave loopback: ${href}`));
  }
  return fetch(input, init);
};

/** One recorded response in tests/fixtures/registries. */
export type RecordedExchange = {
  request: { method: string; url: string };
  status: number;
  headers: Record<string, string>;
  body?: unknown;
};

/** A recorded response as a replay-server reply. */
export function recorded(exchange: RecordedExchange, overrides: { headers?: Record<string, string> } = {}) {
  return { status: exchange.status, headers: { ...exchange.headers, ...overrides.headers }, body: exchange.body };
}
