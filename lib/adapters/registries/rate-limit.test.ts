// 429 back-off and per-host concurrency, against recorded 429 answers.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AppError } from "@/lib/domain/errors";
import { createRegistryClient, type RegistryClientOptions } from "@/lib/adapters/registries/client";
import { parseRateLimitHeader, parseRetryAfter } from "@/lib/adapters/registries/rate-limit";
import { fixture, startReplayServer, type ReplayServer } from "@/tests/support/replay-server";
import { loopbackOnlyFetch, recorded, type RecordedExchange } from "@/tests/support/registry";

const limits = fixture<Record<"retry_after" | "pull_limit", RecordedExchange>>("registries/too-many-requests.json");
const NOW = Date.parse("2026-11-20T10:00:00Z");
const DIGEST = `sha256:${"c".repeat(64)}`;

describe("header parsing", () => {
  it.each([
    ["30", 30_000],
    ["0", 0],
    [" 5 ", 5_000],
    ["Fri, 20 Nov 2026 10:01:00 GMT", 60_000],
    ["Fri, 20 Nov 2026 09:00:00 GMT", 0],
    ["99999999", 24 * 3600_000],
    ["soon", null],
    ["-1", null],
    [null, null],
  ])("Retry-After %j → %s ms", (value, ms) => {
    expect(parseRetryAfter(value, NOW)).toBe(ms);
  });

  it.each([
    ["97;w=21600", { remaining: 97, windowSeconds: 21600 }],
    ["0;w=21600", { remaining: 0, windowSeconds: 21600 }],
    ["12", { remaining: 12, windowSeconds: null }],
    ["n/a", null],
    [null, null],
  ])("ratelimit-remaining %j", (value, parsed) => {
    expect(parseRateLimitHeader(value)).toEqual(parsed);
  });
});

describe("back-off against a replayed registry", () => {
  let replay: ReplayServer;
  let clock = NOW;
  const client = (over: Partial<RegistryClientOptions> = {}) =>
    createRegistryClient({ fetch: loopbackOnlyFetch, resolveBaseUrl: () => replay.url, now: () => clock, ...over });
  const app = { host: "ghcr.io", path: "owner/app" };

  beforeAll(async () => {
    replay = await startReplayServer([]);
  });
  afterAll(async () => {
    await replay.close();
  });
  beforeEach(() => {
    replay.requests.length = 0;
    clock = NOW;
  });

  it("a long Retry-After fails fast with rate_limited, and the host rests until it passes", async () => {
    replay.setRoutes([{ path: "/v2/owner/app/tags/list", reply: recorded(limits.retry_after) }]);
    const c = client();
    const err = await c.listTags(app).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: "rate_limited", retryAfterSeconds: 30 });
    expect(replay.requests).toHaveLength(1);

    clock += 10_000;
    await expect(c.headDigest(app, "1.0")).rejects.toMatchObject({ code: "rate_limited", retryAfterSeconds: 20 });
    expect(replay.requests).toHaveLength(1);

    clock += 21_000;
    replay.setRoutes([{ path: "/v2/owner/app/tags/list", reply: { body: { name: "owner/app", tags: ["1.0"] } } }]);
    expect(await c.listTags(app)).toEqual(["1.0"]);
    expect(replay.requests).toHaveLength(2);
  });

  it("a short Retry-After is waited out, then the request is retried once", async () => {
    let calls = 0;
    replay.setRoutes([
      {
        path: "/v2/owner/app/tags/list",
        reply: () => (calls++ === 0 ? recorded(limits.retry_after, { headers: { "retry-after": "1" } }) : { body: { name: "owner/app", tags: ["1.0"] } }),
      },
    ]);
    const started = Date.now();
    expect(await client({ now: Date.now }).listTags(app)).toEqual(["1.0"]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(replay.requests).toHaveLength(2);
  });

  it("a second 429 in a row is not retried again", async () => {
    replay.setRoutes([{ path: "/v2/owner/app/tags/list", reply: recorded(limits.retry_after, { headers: { "retry-after": "0" } }) }]);
    await expect(client().listTags(app)).rejects.toMatchObject({ code: "rate_limited" });
    expect(replay.requests).toHaveLength(2);
  });

  it("Docker Hub's pull limit blocks manifest GETs only; HEADs go on and lift it when pulls are back", async () => {
    let remaining = 0;
    replay.setRoutes([
      { path: "/v2/library/nginx/manifests/1.27", method: "GET", reply: (req) => (req.method === "HEAD" ? { status: 200, headers: { "docker-content-digest": DIGEST, "ratelimit-remaining": `${remaining};w=21600` } } : recorded(limits.pull_limit)) },
    ]);
    const c = client();
    const nginx = { host: "docker.io", path: "library/nginx" };
    await expect(c.getManifest(nginx, "1.27")).rejects.toMatchObject({ code: "rate_limited", retryAfterSeconds: 3600 });
    expect(replay.count(undefined, "GET")).toBe(1);

    await expect(c.getManifest(nginx, "1.27")).rejects.toMatchObject({ code: "rate_limited" });
    expect(replay.count(undefined, "GET")).toBe(1);
    expect(await c.headDigest(nginx, "1.27")).toBe(DIGEST);

    remaining = 5;
    expect(await c.headDigest(nginx, "1.27")).toBe(DIGEST);
    await expect(c.getManifest(nginx, "1.27")).rejects.toMatchObject({ code: "rate_limited" });
    expect(replay.count(undefined, "GET")).toBe(2); // the pull was attempted again
  });

  it("bounds the requests in flight per host", async () => {
    let inFlight = 0;
    let peak = 0;
    replay.setRoutes([
      {
        method: "HEAD",
        path: /^\/v2\/owner\/app\/manifests\//,
        reply: async () => {
          peak = Math.max(peak, ++inFlight);
          await new Promise((r) => setTimeout(r, 40));
          inFlight--;
          return { status: 200, headers: { "docker-content-digest": DIGEST } };
        },
      },
    ]);
    const c = client({ maxConcurrencyPerHost: 2 });
    const tags = Array.from({ length: 8 }, (_, i) => `1.${i}`);
    expect(await Promise.all(tags.map((t) => c.headDigest(app, t)))).toEqual(tags.map(() => DIGEST));
    expect(peak).toBe(2);
    expect(replay.requests).toHaveLength(8);
  });
});
