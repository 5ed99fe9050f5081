// Token flows of Docker Hub and GHCR, replayed from recorded responses on a
// loopback server that stands in for every host (registry and realm alike).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseWwwAuthenticate } from "@/lib/adapters/registries/auth";
import { createRegistryClient, isPrivateRepositoryError, type RegistryClientOptions } from "@/lib/adapters/registries/client";
import { fixture, startReplayServer, type ReplayServer } from "@/tests/support/replay-server";
import { loopbackOnlyFetch, recorded, type RecordedExchange } from "@/tests/support/registry";

type Flow = Record<string, RecordedExchange>;
const hub = fixture<Flow>("registries/docker-hub-token-flow.json");
const ghcr = fixture<Flow>("registries/ghcr-token-flow.json");
const x = (flow: Flow, name: string): RecordedExchange => {
  const e = flow[name];
  if (!e) throw new Error(`fixture exchange ${name} missing`);
  return e;
};
const hubToken = (x(hub, "token").body as { token: string }).token;
const ghcrToken = (x(ghcr, "token").body as { token: string }).token;

describe("parseWwwAuthenticate", () => {
  it.each([
    [
      'Bearer realm="https://auth.docker.io/token",service="registry.docker.io",scope="repository:library/nginx:pull"',
      [{ scheme: "bearer", params: { realm: "https://auth.docker.io/token", service: "registry.docker.io", scope: "repository:library/nginx:pull" } }],
    ],
    [
      'Bearer realm="https://ghcr.io/token",service="ghcr.io",scope="repository:a/b:pull,push",error="insufficient_scope"',
      [{ scheme: "bearer", params: { realm: "https://ghcr.io/token", service: "ghcr.io", scope: "repository:a/b:pull,push", error: "insufficient_scope" } }],
    ],
    ['Basic realm="Registry Realm"', [{ scheme: "basic", params: { realm: "Registry Realm" } }]],
    [
      'Basic realm="x, y", Bearer realm="https://a.example/token", service=reg',
      [
        { scheme: "basic", params: { realm: "x, y" } },
        { scheme: "bearer", params: { realm: "https://a.example/token", service: "reg" } },
      ],
    ],
    ['bearer Realm="q\\"uote"', [{ scheme: "bearer", params: { realm: 'q"uote' } }]],
    ["", []],
  ])("%s", (header, expected) => {
    expect(parseWwwAuthenticate(header)).toEqual(expected);
  });
});

describe("recorded token flows", () => {
  let replay: ReplayServer;
  let clock = 1_800_000_000_000;
  let log: string[] = [];
  const mapped = new Set<string>();

  const client = (over: Partial<RegistryClientOptions> = {}) =>
    createRegistryClient({
      fetch: loopbackOnlyFetch,
      resolveBaseUrl: (host) => {
        mapped.add(host);
        return replay.url;
      },
      now: () => clock,
      onRequest: (i) => log.push(`${i.method} ${i.host}${i.path} ${i.status}`),
      ...over,
    });

  beforeAll(async () => {
    replay = await startReplayServer([]);
  });
  afterAll(async () => {
    await replay.close();
  });
  beforeEach(() => {
    log = [];
    replay.requests.length = 0;
    clock = 1_800_000_000_000;
  });

  function hubRoutes() {
    replay.setRoutes([
      {
        method: "HEAD",
        path: "/v2/library/nginx/manifests/1.27",
        reply: (req) => (req.headers.authorization === `Bearer ${hubToken}` ? recorded(x(hub, "manifest_head")) : recorded(x(hub, "challenge"))),
      },
      {
        method: "HEAD",
        path: "/v2/acme/private-app/manifests/1.0",
        reply: (req) =>
          req.headers.authorization
            ? recorded(x(hub, "insufficient_scope"))
            : recorded(x(hub, "challenge"), {
                headers: { "www-authenticate": 'Bearer realm="https://auth.docker.io/token",service="registry.docker.io",scope="repository:acme/private-app:pull"' },
              }),
      },
      {
        path: "/token",
        reply: (_req, url) =>
          url.searchParams.get("service") === "registry.docker.io" && url.searchParams.get("scope")?.startsWith("repository:")
            ? recorded(x(hub, "token"))
            : { status: 400, body: { details: "bad service or scope" } },
      },
    ]);
  }

  it("Docker Hub: challenge, anonymous token from auth.docker.io, retry with Bearer", async () => {
    hubRoutes();
    const c = client();
    const digest = await c.headDigest({ host: "docker.io", path: "library/nginx" }, "1.27");
    expect(digest).toBe(x(hub, "manifest_head").headers["docker-content-digest"]);
    expect(log).toEqual([
      "HEAD registry-1.docker.io/v2/library/nginx/manifests/1.27 401",
      "GET auth.docker.io/token 200",
      "HEAD registry-1.docker.io/v2/library/nginx/manifests/1.27 200",
    ]);
    expect(mapped).toEqual(new Set(["registry-1.docker.io", "auth.docker.io"]));
    const tokenRequest = replay.requests.find((r) => r.path.startsWith("/token"));
    expect(tokenRequest?.path).toBe("/token?service=registry.docker.io&scope=repository%3Alibrary%2Fnginx%3Apull");
    expect(tokenRequest?.headers.authorization).toBeUndefined();
  });

  it("Docker Hub: the token is cached per host and scope until it expires", async () => {
    hubRoutes();
    const c = client();
    const nginx = { host: "docker.io", path: "library/nginx" };
    await c.headDigest(nginx, "1.27");
    log = [];
    await c.headDigest(nginx, "1.27");
    expect(log).toEqual(["HEAD registry-1.docker.io/v2/library/nginx/manifests/1.27 200"]);
    clock += 300_000; // expires_in: 300
    log = [];
    await c.headDigest(nginx, "1.27");
    expect(log).toEqual(["GET auth.docker.io/token 200", "HEAD registry-1.docker.io/v2/library/nginx/manifests/1.27 200"]);
  });

  it("Docker Hub: concurrent requests share one token request", async () => {
    hubRoutes();
    const c = client();
    const nginx = { host: "index.docker.io", path: "library/nginx" };
    await Promise.all([c.headDigest(nginx, "1.27"), c.headDigest(nginx, "1.27"), c.headDigest(nginx, "1.27")]);
    expect(log.filter((l) => l.startsWith("GET auth.docker.io"))).toHaveLength(1);
  });

  it("Docker Hub: an anonymous token without access means a private repository", async () => {
    hubRoutes();
    const err = await client().headDigest({ host: "docker.io", path: "acme/private-app" }, "1.0").catch((e: unknown) => e);
    expect(isPrivateRepositoryError(err)).toBe(true);
    expect(log).toEqual([
      "HEAD registry-1.docker.io/v2/acme/private-app/manifests/1.0 401",
      "GET auth.docker.io/token 200",
      "HEAD registry-1.docker.io/v2/acme/private-app/manifests/1.0 401",
    ]);
  });

  it("Docker Hub: credentials for docker.io go to the realm as Basic auth", async () => {
    hubRoutes();
    const asked: string[] = [];
    const c = client({
      credentials: (host) => {
        asked.push(host);
        return { username: "me", password: "pat_123" };
      },
    });
    await c.headDigest({ host: "docker.io", path: "library/nginx" }, "1.27");
    expect(asked).toContain("docker.io");
    const tokenRequest = replay.requests.find((r) => r.path.startsWith("/token"));
    expect(tokenRequest?.headers.authorization).toBe(`Basic ${Buffer.from("me:pat_123").toString("base64")}`);
  });

  it("GHCR: the realm on ghcr.io itself; a token without expiry lives 60 s", async () => {
    replay.setRoutes([
      {
        path: "/v2/super-linter/super-linter/tags/list",
        reply: (req) => (req.headers.authorization === `Bearer ${ghcrToken}` ? recorded(x(ghcr, "tags")) : recorded(x(ghcr, "challenge"))),
      },
      { path: "/token", reply: (_req, url) => (url.searchParams.get("service") === "ghcr.io" ? recorded(x(ghcr, "token")) : { status: 400 }) },
    ]);
    const c = client();
    const repo = { host: "ghcr.io", path: "super-linter/super-linter" };
    expect(await c.listTags(repo)).toEqual((x(ghcr, "tags").body as { tags: string[] }).tags);
    expect(log).toEqual([
      "GET ghcr.io/v2/super-linter/super-linter/tags/list 401",
      "GET ghcr.io/token 200",
      "GET ghcr.io/v2/super-linter/super-linter/tags/list 200",
    ]);
    clock += 45_000;
    log = [];
    await c.listTags(repo);
    expect(log).toEqual(["GET ghcr.io/v2/super-linter/super-linter/tags/list 200"]);
    clock += 20_000;
    log = [];
    await c.listTags(repo);
    expect(log).toEqual(["GET ghcr.io/token 200", "GET ghcr.io/v2/super-linter/super-linter/tags/list 200"]);
  });

  it("GHCR: 403 DENIED is a private repository", async () => {
    replay.setRoutes([{ path: "/v2/acme/internal/tags/list", reply: recorded(x(ghcr, "denied")) }]);
    const err = await client().listTags({ host: "ghcr.io", path: "acme/internal" }).catch((e: unknown) => e);
    expect(isPrivateRepositoryError(err)).toBe(true);
    expect(String(err)).toMatch(/DENIED/);
  });

  it("refuses a realm on plain http: no request reaches it", async () => {
    replay.setRoutes([
      {
        path: "/v2/owner/app/tags/list",
        reply: recorded(x(ghcr, "challenge"), { headers: { "www-authenticate": 'Bearer realm="http://auth.example.com/token",service="x"' } }),
      },
    ]);
    await expect(client().listTags({ host: "ghcr.io", path: "owner/app" })).rejects.toMatchObject({
      code: "registry_unavailable",
      message: expect.stringContaining("refusing http://auth.example.com"),
    });
    expect(log).toEqual(["GET ghcr.io/v2/owner/app/tags/list 401"]);
  });

  it("a malformed token answer is registry_unavailable", async () => {
    replay.setRoutes([
      { path: "/v2/owner/app/tags/list", reply: recorded(x(ghcr, "challenge")) },
      { path: "/token", reply: { status: 200, body: { expires_in: 60 } } },
    ]);
    await expect(client().listTags({ host: "ghcr.io", path: "owner/app" })).rejects.toMatchObject({ code: "registry_unavailable" });
    replay.setRoutes([
      { path: "/v2/owner/app/tags/list", reply: recorded(x(ghcr, "challenge")) },
      { path: "/token", reply: { status: 200, body: "<html>maintenance</html>" } },
    ]);
    await expect(client().listTags({ host: "ghcr.io", path: "owner/app" })).rejects.toMatchObject({ code: "registry_unavailable" });
  });

  it("Basic challenge: credentials are sent on the retry, and up front afterwards", async () => {
    const basic = `Basic ${Buffer.from("ci:token").toString("base64")}`;
    replay.setRoutes([
      {
        path: "/v2/team/app/tags/list",
        reply: (req) =>
          req.headers.authorization === basic
            ? { body: { name: "team/app", tags: ["1.0"] } }
            : { status: 401, headers: { "www-authenticate": 'Basic realm="Registry Realm"' }, body: { errors: [{ code: "UNAUTHORIZED" }] } },
      },
    ]);
    const c = client({ credentials: (host) => (host === "registry.example.com" ? { username: "ci", password: "token" } : null) });
    const repo = { host: "registry.example.com", path: "team/app" };
    expect(await c.listTags(repo)).toEqual(["1.0"]);
    expect(await c.listTags(repo)).toEqual(["1.0"]);
    expect(log.map((l) => l.split(" ").at(-1))).toEqual(["401", "200", "200"]);
    await expect(client().listTags(repo)).rejects.toMatchObject({ code: "forbidden" });
  });
});
