// Repositories that need credentials, on a real registry: Bearer token auth
// (a loopback token service shaped like Docker Hub's) and htpasswd Basic auth.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRegistryClient, isPrivateRepositoryError } from "@/lib/adapters/registries/client";
import { resolveDigest } from "@/lib/adapters/registries/resolve";
import { HTPASSWD_USER, countRegistryRequests, loopbackOnlyFetch, startRegistry, type TestRegistry } from "@/tests/support/registry";

const AGENT = { username: "agent", password: "s3cret pass:word" };

describe("token auth (Bearer challenge from the registry)", () => {
  let registry: TestRegistry;
  let digest: string;

  beforeAll(async () => {
    registry = await startRegistry({ auth: { kind: "token", users: { [AGENT.username]: AGENT.password }, privatePrefixes: ["acme/"] } });
    digest = (await registry.pushImage("acme/billing", "1.4.0", { platforms: ["linux/amd64", "linux/arm64/v8"] })).digest;
    await registry.tagExisting("acme/billing", "1.4", "1.4.0");
    await registry.pushImage("public/app", "1.0.0");
  }, 60_000);

  afterAll(async () => {
    await registry?.stop();
  });

  const clientWith = (credentials?: typeof AGENT) =>
    createRegistryClient({
      insecureHosts: [registry.host, registry.tokenServer?.host ?? ""],
      fetch: loopbackOnlyFetch,
      credentials: credentials ? (host) => (host === registry.host ? credentials : null) : undefined,
    });
  const billing = () => ({ host: registry.host, path: "acme/billing" });

  it("anonymous: the token carries no access, so the repository is private", async () => {
    const client = clientWith();
    await registry.clearLog();
    const err = await client.listTags(billing()).catch((e: unknown) => e);
    expect(isPrivateRepositoryError(err)).toBe(true);
    // Docker Hub's way: a token is issued, the registry then answers insufficient_scope.
    await registry.syncLog();
    expect(registry.log.map((e) => `${e.method} ${e.status}`)).toEqual(["GET 401", "GET 401"]);
    expect(registry.tokenServer?.requests.at(-1)).toMatchObject({ user: null, status: 200, scope: ["repository:acme/billing:pull"] });
    await expect(client.headDigest(billing(), "1.4")).rejects.toMatchObject({ code: "forbidden" });
    await expect(client.getManifest(billing(), "1.4")).rejects.toMatchObject({ code: "forbidden" });
  });

  it("with credentials: tags, digests and resolution work", async () => {
    const client = clientWith(AGENT);
    expect((await client.listTags(billing())).sort()).toEqual(["1.4", "1.4.0"]);
    expect(await client.headDigest(billing(), "1.4")).toBe(digest);
    const r = await resolveDigest(client, { repo: billing(), runningDigest: digest, isPlatformDigest: false, candidates: ["1.4.0"], knownDigests: new Map() });
    expect(r.tag).toBe("1.4.0");
    expect(registry.tokenServer?.requests.at(-1)).toMatchObject({ user: "agent", status: 200, scope: ["repository:acme/billing:pull"] });
  });

  it("wrong credentials are refused as private too", async () => {
    const err = await clientWith({ username: "agent", password: "wrong" }).listTags(billing()).catch((e: unknown) => e);
    expect(isPrivateRepositoryError(err)).toBe(true);
    expect(String(err)).toMatch(/credentials were refused/);
  });

  it("a public repository works anonymously; the token is fetched once and reused", async () => {
    const client = clientWith();
    const tokensBefore = registry.tokenServer?.requests.length ?? 0;
    await registry.clearLog();
    const app = { host: registry.host, path: "public/app" };
    expect(await client.listTags(app)).toEqual(["1.0.0"]);
    expect(await client.headDigest(app, "1.0.0")).toMatch(/^sha256:/);
    expect(await client.headDigest(app, "1.0.0")).toMatch(/^sha256:/);
    await registry.syncLog();
    // One challenge, then every request carries the cached token.
    expect(registry.log.map((e) => `${e.method} ${e.status}`)).toEqual(["GET 401", "GET 200", "HEAD 200", "HEAD 200"]);
    expect((registry.tokenServer?.requests.length ?? 0) - tokensBefore).toBe(1);
  });

  it("a known Bearer host gets its token before the first request: a check is one request per tag page", async () => {
    const client = clientWith();
    const app = { host: registry.host, path: "public/app" };
    await client.listTags(app); // learns the challenge
    await registry.clearLog();
    await client.listTags(app);
    await registry.syncLog();
    expect(registry.log.map((e) => `${e.method} ${e.status}`)).toEqual(["GET 200"]);
    expect(countRegistryRequests(registry.log, "GET", "tags/list")).toBe(1);
  });

  it("refuses a realm on plain http unless that host is configured insecure", async () => {
    const client = createRegistryClient({ insecureHosts: [registry.host], fetch: loopbackOnlyFetch });
    await expect(client.listTags({ host: registry.host, path: "public/app" })).rejects.toMatchObject({
      code: "registry_unavailable",
      message: expect.stringMatching(/refusing http:\/\/127\.0\.0\.1:\d+/),
    });
  });
});

describe("htpasswd auth (Basic)", () => {
  let registry: TestRegistry;

  beforeAll(async () => {
    registry = await startRegistry({ auth: { kind: "htpasswd" } });
    await registry.pushImage("internal/api", "5.0.0");
  }, 60_000);

  afterAll(async () => {
    await registry?.stop();
  });

  const api = () => ({ host: registry.host, path: "internal/api" });

  it("anonymous is refused: private", async () => {
    const client = createRegistryClient({ insecureHosts: [registry.host], fetch: loopbackOnlyFetch });
    const err = await client.listTags(api()).catch((e: unknown) => e);
    expect(isPrivateRepositoryError(err)).toBe(true);
  });

  it("with credentials works, and later requests send them without a new challenge", async () => {
    const client = createRegistryClient({
      insecureHosts: [registry.host],
      fetch: loopbackOnlyFetch,
      credentials: () => ({ username: HTPASSWD_USER.username, password: HTPASSWD_USER.password }),
    });
    await registry.clearLog();
    expect(await client.listTags(api())).toEqual(["5.0.0"]);
    expect(await client.headDigest(api(), "5.0.0")).toMatch(/^sha256:/);
    await registry.syncLog();
    expect(registry.log.map((e) => `${e.method} ${e.status}`)).toEqual(["GET 401", "GET 200", "HEAD 200"]);
  });

  it("a wrong password is refused", async () => {
    const client = createRegistryClient({
      insecureHosts: [registry.host],
      fetch: loopbackOnlyFetch,
      credentials: () => ({ username: HTPASSWD_USER.username, password: "nope" }),
    });
    await expect(client.listTags(api())).rejects.toMatchObject({ code: "forbidden" });
  });
});
