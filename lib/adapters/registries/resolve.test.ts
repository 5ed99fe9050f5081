// Moving-tag resolution against a real registry on loopback. Request counts
// come from the registry's own access log.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createRegistryClient, type RegistryClient } from "@/lib/adapters/registries/client";
import { resolveDigest, type ResolveInput } from "@/lib/adapters/registries/resolve";
import { countRegistryRequests, loopbackOnlyFetch, startRegistry, summarizeRegistryRequests, type PushedImage, type TestRegistry } from "@/tests/support/registry";

let registry: TestRegistry;
let client: RegistryClient;
const pushed = new Map<string, PushedImage>();
const MULTI = ["linux/amd64", "linux/arm64/v8"];
// Exact versions, newest first, as the version engine hands them over.
const VERSIONS = ["2.0.0", "1.28.0", "1.27.3", "1.27.2", "1.27.1"];

beforeAll(async () => {
  registry = await startRegistry();
  client = createRegistryClient({ insecureHosts: [registry.host], fetch: loopbackOnlyFetch });
  for (const v of [...VERSIONS].reverse()) pushed.set(v, await registry.pushImage("library/web", v, { platforms: MULTI }));
  // Moving tags, re-PUT from the exact versions: same bytes, same digests.
  await registry.tagExisting("library/web", "latest", "2.0.0");
  await registry.tagExisting("library/web", "1", "1.28.0");
  await registry.tagExisting("library/web", "1.27", "1.27.3");
  // A single-platform repository.
  for (const v of ["3.1.0", "3.0.0"]) pushed.set(`single:${v}`, await registry.pushImage("team/single", v));
  await registry.tagExisting("team/single", "latest", "3.1.0");
}, 60_000);

afterAll(async () => {
  await registry?.stop();
});

beforeEach(async () => {
  await registry.clearLog();
});

const web = () => ({ host: registry.host, path: "library/web" });
const indexDigest = (v: string) => pushed.get(v)?.digest ?? "";
const platformDigest = (v: string, platform: string) => pushed.get(v)?.platforms.find((p) => p.platform === platform)?.digest ?? "";

function input(over: Partial<ResolveInput>): ResolveInput {
  return { repo: web(), runningDigest: "", isPlatformDigest: false, candidates: VERSIONS, knownDigests: new Map(), ...over };
}

async function logged() {
  await registry.syncLog();
  return {
    head: countRegistryRequests(registry.log, "HEAD", "manifests"),
    get: countRegistryRequests(registry.log, "GET", "manifests"),
  };
}

describe("moving tags point at exact versions", () => {
  it.each([
    ["latest", "2.0.0"],
    ["1", "1.28.0"],
    ["1.27", "1.27.3"],
  ])("%s has the digest of %s", async (moving, exact) => {
    expect(await client.headDigest(web(), moving)).toBe(indexDigest(exact));
  });
});

describe("resolveDigest by index digest", () => {
  it.each([
    ["latest", "2.0.0", 1],
    ["1", "1.28.0", 2],
    ["1.27", "1.27.3", 3],
  ])("%s resolves to %s with HEADs only, stopping at the first match", async (moving, exact, heads) => {
    const running = await client.headDigest(web(), moving);
    await registry.clearLog();
    const r = await resolveDigest(client, input({ runningDigest: running ?? "" }));
    expect(r).toMatchObject({ tag: exact, headRequests: heads, manifestGets: 0 });
    expect([...r.learned.keys()]).toEqual(VERSIONS.slice(0, heads));
    expect(await logged()).toEqual({ head: heads, get: 0 });
  });

  it("resolves 1.27 within its own line (the version engine's candidates)", async () => {
    const r = await resolveDigest(client, input({ runningDigest: indexDigest("1.27.3"), candidates: ["1.27.3", "1.27.2", "1.27.1"] }));
    expect(r).toMatchObject({ tag: "1.27.3", headRequests: 1, manifestGets: 0 });
  });

  it("resolves a moving tag deployed before the tag moved on", async () => {
    const r = await resolveDigest(client, input({ runningDigest: indexDigest("1.27.2"), candidates: ["1.27.3", "1.27.2", "1.27.1"] }));
    expect(r.tag).toBe("1.27.2");
    expect(r.headRequests).toBe(2);
  });

  it("sends no HEAD for digests already known", async () => {
    const known = new Map<string, string | null>([
      ["2.0.0", indexDigest("2.0.0")],
      ["1.28.0", indexDigest("1.28.0")],
      ["1.27.3", null],
    ]);
    const r = await resolveDigest(client, input({ runningDigest: indexDigest("1.27.2"), knownDigests: known }));
    expect(r).toMatchObject({ tag: "1.27.2", headRequests: 1, manifestGets: 0 });
    expect(r.learned).toEqual(new Map([["1.27.2", indexDigest("1.27.2")]]));
    expect(await logged()).toEqual({ head: 1, get: 0 });
  });

  it("gives null when no candidate matches, having asked each once", async () => {
    const r = await resolveDigest(client, input({ runningDigest: `sha256:${"0".repeat(64)}` }));
    expect(r).toMatchObject({ tag: null, headRequests: VERSIONS.length, manifestGets: 0 });
  });

  it("never matches a platform digest against index digests", async () => {
    const r = await resolveDigest(client, input({ runningDigest: platformDigest("2.0.0", "linux/amd64"), isPlatformDigest: false }));
    expect(r.tag).toBeNull();
    expect(r.manifestGets).toBe(0);
  });

  it("resolves a single-platform image by its manifest digest", async () => {
    const r = await resolveDigest(client, {
      repo: { host: registry.host, path: "team/single" },
      runningDigest: (await client.headDigest({ host: registry.host, path: "team/single" }, "latest")) ?? "",
      isPlatformDigest: false,
      candidates: ["3.1.0", "3.0.0"],
      knownDigests: new Map(),
    });
    expect(r).toMatchObject({ tag: "3.1.0", headRequests: 1, manifestGets: 0 });
  });
});

describe("resolveDigest by platform digest", () => {
  it.each([
    ["latest", "2.0.0", "linux/arm64/v8", 1],
    ["latest", "2.0.0", "linux/amd64", 1],
    ["1", "1.28.0", "linux/arm64/v8", 2],
  ])("%s (%s, %s) is found among the index's manifests", async (_moving, exact, platform, gets) => {
    const r = await resolveDigest(client, input({ runningDigest: platformDigest(exact, platform), isPlatformDigest: true }));
    expect(r).toMatchObject({ tag: exact, headRequests: 0, manifestGets: gets });
    expect(r.platformDigestsLearned.get(exact)).toEqual(pushed.get(exact)?.platforms.map((p) => p.digest));
    expect(r.learned.get(exact)).toBe(indexDigest(exact));
    expect(await logged()).toEqual({ head: 0, get: gets });
  });

  it("1.27 resolves by platform digest within its line", async () => {
    const r = await resolveDigest(client, input({ runningDigest: platformDigest("1.27.3", "linux/amd64"), isPlatformDigest: true, candidates: ["1.27.3", "1.27.2", "1.27.1"] }));
    expect(r).toMatchObject({ tag: "1.27.3", manifestGets: 1 });
  });

  it("reads at most two full manifests, even when an older candidate would match", async () => {
    const r = await resolveDigest(client, input({ runningDigest: platformDigest("1.27.2", "linux/amd64"), isPlatformDigest: true }));
    expect(r).toMatchObject({ tag: null, headRequests: 0, manifestGets: 2 });
    expect(await logged()).toEqual({ head: 0, get: 2 });
  });

  it("never matches an index digest against platform digests", async () => {
    const r = await resolveDigest(client, input({ runningDigest: indexDigest("2.0.0"), isPlatformDigest: true, candidates: ["1.28.0", "1.27.3"] }));
    expect(r.tag).toBeNull();
  });

  it("keeps each pull's lesson when the next pull fails, and pulls nothing it already knows", async () => {
    // The budget ends between the two pulls: the first one's platform digests are handed over before the second is tried.
    let gets = 0;
    const budgeted: RegistryClient = { ...client, getManifest: async (repo, ref, o) => (++gets > 1 ? Promise.reject(new Error("no pull to spare")) : client.getManifest(repo, ref, o)) };
    const taught = new Map<string, readonly string[]>();
    const running = platformDigest("1.28.0", "linux/amd64");
    const onPlatformDigests = async (tag: string, _digest: string, platforms: string[]) => void taught.set(tag, platforms);
    await expect(resolveDigest(budgeted, input({ runningDigest: running, isPlatformDigest: true, onPlatformDigests }))).rejects.toThrow(/no pull to spare/);
    expect([...taught.keys()]).toEqual(["2.0.0"]);
    await registry.clearLog();
    // The next try reads 2.0.0's platform digests back and pulls only 1.28.0.
    const r = await resolveDigest(client, input({ runningDigest: running, isPlatformDigest: true, knownPlatformDigests: taught, onPlatformDigests }));
    expect(r).toMatchObject({ tag: "1.28.0", manifestGets: 1 });
    expect(await logged()).toEqual({ head: 0, get: 1 });
    // Both known now: no pull at all, for this platform or another.
    await registry.clearLog();
    const again = await resolveDigest(client, input({ runningDigest: platformDigest("1.28.0", "linux/arm64/v8"), isPlatformDigest: true, knownPlatformDigests: taught }));
    expect(again).toMatchObject({ tag: "1.28.0", manifestGets: 0 });
    expect(await logged()).toEqual({ head: 0, get: 0 });
  });

  it("a single-platform tag's platform digest is its own digest", async () => {
    const taught = new Map<string, string[]>();
    const running = pushed.get("single:3.1.0")!.digest;
    const r = await resolveDigest(client, { repo: { host: registry.host, path: "team/single" }, runningDigest: running, isPlatformDigest: true, candidates: ["3.1.0"], knownDigests: new Map(), onPlatformDigests: async (t, _d, p) => void taught.set(t, p) });
    expect(r.tag).toBe("3.1.0");
    expect(taught.get("3.1.0")).toEqual([running]);
  });
});

describe("request budget of a check", () => {
  it("an unchanged repository costs one request per tag page and no manifest GET", async () => {
    const running = indexDigest("2.0.0");
    const known = new Map<string, string | null>(VERSIONS.map((v) => [v, indexDigest(v)]));
    const tags = await client.listTags(web());
    const r = await resolveDigest(client, input({ runningDigest: running, knownDigests: known }));
    await registry.syncLog();
    expect(tags.sort()).toEqual(["1", "1.27", "1.27.1", "1.27.2", "1.27.3", "1.28.0", "2.0.0", "latest"]);
    expect(r).toMatchObject({ tag: "2.0.0", headRequests: 0, manifestGets: 0 });
    expect(summarizeRegistryRequests(registry.log)).toEqual({ "GET tags/list": 1 });
  });
});
