// Transport rules of the client against a loopback replay server: timeouts,
// failures as registry_unavailable (never a crash), https only, redirects,
// digest checks and input checks.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createRegistryClient, type RegistryClientOptions } from "@/lib/adapters/registries/client";
import { startReplayServer, type ReplayServer, type ReplyInit } from "@/tests/support/replay-server";
import { loopbackOnlyFetch } from "@/tests/support/registry";

const sha = (b: string) => `sha256:${createHash("sha256").update(b).digest("hex")}`;
const CONFIG = JSON.stringify({ architecture: "amd64", os: "linux", config: { Labels: { "org.opencontainers.image.source": "https://github.com/o/app" } } });
const MANIFEST = JSON.stringify({
  schemaVersion: 2,
  mediaType: "application/vnd.oci.image.manifest.v1+json",
  config: { mediaType: "application/vnd.oci.image.config.v1+json", digest: sha(CONFIG), size: CONFIG.length },
  layers: [],
});

let replay: ReplayServer;
let seen: { host: string; method: string; path: string; status: number }[] = [];
const client = (over: Partial<RegistryClientOptions> = {}) =>
  createRegistryClient({
    fetch: loopbackOnlyFetch,
    resolveBaseUrl: () => replay.url,
    onRequest: ({ host, method, path, status }) => seen.push({ host, method, path, status }),
    ...over,
  });
const app = { host: "registry.example.com", path: "team/app" };

beforeAll(async () => {
  replay = await startReplayServer([]);
});
afterAll(async () => {
  await replay.close();
});
beforeEach(() => {
  seen = [];
  replay.requests.length = 0;
});

describe("failures are registry_unavailable", () => {
  it("a registry that does not answer in time", async () => {
    replay.setRoutes([{ path: "/v2/team/app/tags/list", reply: { delayMs: 1_000, body: { tags: [] } } }]);
    await expect(client({ timeoutMs: 100 }).listTags(app)).rejects.toMatchObject({
      code: "registry_unavailable",
      message: expect.stringContaining("no answer within 100 ms"),
    });
  });

  it("a registry that is not listening", async () => {
    const c = client({ resolveBaseUrl: () => "http://127.0.0.1:9" });
    await expect(c.listTags(app)).rejects.toMatchObject({ code: "registry_unavailable", message: expect.stringContaining("request failed") });
  });

  it("a HEAD without Docker-Content-Digest", async () => {
    replay.setRoutes([{ method: "HEAD", path: "/v2/team/app/manifests/1.0", reply: { status: 200 } }]);
    await expect(client().headDigest(app, "1.0")).rejects.toMatchObject({ code: "registry_unavailable" });
  });

  it("a manifest whose bytes do not match its digest", async () => {
    replay.setRoutes([
      { path: "/v2/team/app/manifests/1.0", reply: { headers: { "content-type": "application/vnd.oci.image.manifest.v1+json", "docker-content-digest": sha("other") }, body: MANIFEST } },
    ]);
    await expect(client().getManifest(app, "1.0")).rejects.toMatchObject({ code: "registry_unavailable", message: expect.stringContaining("does not match") });
  });

  it.each([
    ["schema 1", "application/vnd.docker.distribution.manifest.v1+prettyjws", JSON.stringify({ schemaVersion: 1, fsLayers: [] })],
    ["an index without manifests[].digest", "application/vnd.oci.image.index.v1+json", JSON.stringify({ schemaVersion: 2, manifests: [{ size: 1 }] })],
    ["HTML", "text/html", "<html>login</html>"],
  ])("a manifest that is %s", async (_name, type, body) => {
    replay.setRoutes([{ path: "/v2/team/app/manifests/1.0", reply: { headers: { "content-type": type }, body } }]);
    await expect(client().getManifest(app, "1.0")).rejects.toMatchObject({ code: "registry_unavailable" });
  });

  it("a body larger than any manifest", async () => {
    replay.setRoutes([{ path: "/v2/team/app/manifests/1.0", reply: { headers: { "content-type": "application/vnd.oci.image.index.v1+json" }, body: "x".repeat(5 * 1024 * 1024) } }]);
    await expect(client().getManifest(app, "1.0")).rejects.toMatchObject({ code: "registry_unavailable", message: expect.stringContaining("exceeds") });
  });
});

describe("redirects", () => {
  it("follows a blob redirect to storage on another host, without the registry's credentials", async () => {
    const basic = `Basic ${Buffer.from("ci:pw").toString("base64")}`;
    replay.setRoutes([
      { path: "/v2/team/app/manifests/1.0", reply: (req): ReplyInit => (req.headers.authorization === basic ? { headers: { "content-type": "application/vnd.oci.image.manifest.v1+json" }, body: MANIFEST } : { status: 401, headers: { "www-authenticate": 'Basic realm="r"' } }) },
      { path: `/v2/team/app/blobs/${sha(CONFIG)}`, reply: (req): ReplyInit => (req.headers.authorization === basic ? { status: 307, headers: { location: `https://storage.example.net/blobs/${sha(CONFIG)}?sig=abc` } } : { status: 401, headers: { "www-authenticate": 'Basic realm="r"' } }) },
      { path: `/blobs/${sha(CONFIG)}`, reply: { headers: { "content-type": "application/octet-stream" }, body: CONFIG } },
    ]);
    const labels = await client({ credentials: () => ({ username: "ci", password: "pw" }) }).getImageLabels(app, "1.0");
    expect(labels).toEqual({ "org.opencontainers.image.source": "https://github.com/o/app" });
    const storage = replay.requests.find((r) => r.path.startsWith("/blobs/"));
    expect(storage?.path).toBe(`/blobs/${sha(CONFIG)}?sig=abc`);
    expect(storage?.headers.authorization).toBeUndefined();
    expect(seen.at(-1)).toMatchObject({ host: "storage.example.net", method: "GET", status: 200 });
  });

  it("refuses a redirect from https to plain http", async () => {
    replay.setRoutes([{ method: "HEAD", path: "/v2/team/app/manifests/1.0", reply: { status: 302, headers: { location: "http://mirror.example.com/v2/team/app/manifests/1.0" } } }]);
    await expect(client().headDigest(app, "1.0")).rejects.toMatchObject({ code: "registry_unavailable", message: expect.stringContaining("refusing http://mirror.example.com") });
    expect(replay.requests).toHaveLength(1);
  });

  it("gives up after five redirects", async () => {
    replay.setRoutes([{ method: "HEAD", path: "/v2/team/app/manifests/1.0", reply: { status: 307, headers: { location: "/v2/team/app/manifests/1.0" } } }]);
    await expect(client().headDigest(app, "1.0")).rejects.toMatchObject({ code: "registry_unavailable", message: expect.stringContaining("redirects") });
    expect(replay.requests).toHaveLength(6);
  });
});

describe("hosts and schemes", () => {
  it("reaches an insecure registry over http by default, and reports each exchange", async () => {
    const host = new URL(replay.url).host;
    replay.setRoutes([{ method: "HEAD", path: "/v2/team/app/manifests/1.0", reply: { status: 200, headers: { "docker-content-digest": sha("m") } } }]);
    const c = createRegistryClient({ fetch: loopbackOnlyFetch, insecureHosts: [host], onRequest: (i) => seen.push(i) });
    expect(await c.headDigest({ host, path: "team/app" }, "1.0")).toBe(sha("m"));
    expect(seen).toEqual([{ host, method: "HEAD", path: "/v2/team/app/manifests/1.0", status: 200, ms: expect.any(Number) }]);
  });

  it("uses https for a host that is not insecure", async () => {
    const asked: string[] = [];
    const c = createRegistryClient({
      fetch: (input) => {
        asked.push(String(input));
        return Promise.reject(new Error("offline"));
      },
    });
    await expect(c.headDigest({ host: "nginx.example.org:5000", path: "a" }, "1")).rejects.toMatchObject({ code: "registry_unavailable" });
    await expect(c.headDigest({ host: "docker.io", path: "library/nginx" }, "1")).rejects.toMatchObject({ code: "registry_unavailable" });
    expect(asked).toEqual(["https://nginx.example.org:5000/v2/a/manifests/1", "https://registry-1.docker.io/v2/library/nginx/manifests/1"]);
  });

  it.each([
    [{ host: "registry.example.com", path: "../etc" }, "1.0"],
    [{ host: "registry.example.com", path: "Team/App" }, "1.0"],
    [{ host: "bad host", path: "a" }, "1.0"],
    [{ host: "registry.example.com", path: "a" }, "1.0/../../x"],
    [{ host: "registry.example.com", path: "a" }, "sha256:short"],
  ])("rejects %j %s before any request", async (repo, ref) => {
    await expect(client().headDigest(repo, ref)).rejects.toMatchObject({ code: "bad_request" });
    expect(replay.requests).toHaveLength(0);
  });
});

describe("pull accounting", () => {
  const hub = { host: "docker.io", path: "library/nginx" };
  const limitHeaders = (remaining: number) => ({ "ratelimit-limit": "100;w=21600", "ratelimit-remaining": `${remaining};w=21600`, "docker-ratelimit-source": "203.0.113.7" });

  it("reads Docker Hub's own count from a HEAD, and counts a labels read's pulls (manifest GETs, not the blob)", async () => {
    replay.setRoutes([
      { method: "HEAD", path: "/v2/library/nginx/manifests/1.27", reply: { headers: { "docker-content-digest": sha(MANIFEST), ...limitHeaders(97) } } },
      { path: "/v2/library/nginx/manifests/1.27", reply: { headers: { "content-type": "application/vnd.oci.image.manifest.v1+json", ...limitHeaders(96) }, body: MANIFEST } },
      { path: `/v2/library/nginx/blobs/${sha(CONFIG)}`, reply: { headers: { "content-type": "application/octet-stream" }, body: CONFIG } },
    ]);
    const c = client({ now: () => 1_000 });
    expect(c.rateLimitOf("docker.io")).toBeNull();
    await c.headDigest(hub, "1.27");
    expect(c.rateLimitOf("docker.io")).toEqual({ limit: 100, remaining: 97, windowSeconds: 21600, at: 1_000 });
    let pulls = 0;
    await c.getImageLabels(hub, "1.27", { onPull: () => pulls++ });
    expect(pulls).toBe(1);
    // The blob answer carries no count: the manifest GET's stays.
    expect(c.rateLimitOf("index.docker.io")).toEqual({ limit: 100, remaining: 96, windowSeconds: 21600, at: 1_000 });
    expect(c.rateLimitOf("ghcr.io")).toBeNull();
  });

  it("takes a refused pull (429) as no pulls left", async () => {
    replay.setRoutes([{ path: "/v2/library/nginx/manifests/1.27", reply: { status: 429, headers: { "content-type": "application/json", ...limitHeaders(0) }, body: { errors: [{ code: "TOOMANYREQUESTS" }] } } }]);
    const c = client({ now: () => 2_000 });
    let pulls = 0;
    await expect(c.getManifest(hub, "1.27", { onPull: () => pulls++ })).rejects.toMatchObject({ code: "rate_limited" });
    expect(pulls).toBe(0);
    expect(c.rateLimitOf("docker.io")).toMatchObject({ remaining: 0, at: 2_000 });
  });
});

describe("a Docker Hub mirror", () => {
  it("takes Docker Hub's requests, and its rate-limit headers count as Hub's", async () => {
    replay.setRoutes([
      { method: "HEAD", path: "/v2/library/nginx/manifests/1.27", reply: { headers: { "docker-content-digest": sha(MANIFEST), "ratelimit-limit": "100;w=21600", "ratelimit-remaining": "42;w=21600" } } },
      { path: "/v2/library/nginx/tags/list", reply: { headers: { "content-type": "application/json" }, body: { name: "library/nginx", tags: ["1.27"] } } },
    ]);
    const mirrorOf = (host: string) => (host === "docker.io" ? "http://mirror.local:5000" : null);
    const c = client({ mirrorOf, insecureHosts: ["mirror.local:5000"], now: () => 3_000 });
    expect(await c.listTags({ host: "docker.io", path: "library/nginx" })).toEqual(["1.27"]);
    expect(await c.headDigest({ host: "index.docker.io", path: "library/nginx" }, "1.27")).toBe(sha(MANIFEST));
    expect(seen.map((s) => s.host)).toEqual(["mirror.local:5000", "mirror.local:5000"]);
    expect(c.rateLimitOf("docker.io")).toMatchObject({ remaining: 42, limit: 100 });
    // Other hosts are not mirrored.
    seen = [];
    await c.listTags(app).catch(() => null);
    expect(seen.map((s) => s.host)).toEqual(["registry.example.com"]);
  });
});
