// The registry client's real failures, turned into the one line a user reads:
// a loopback server that refuses, times out and answers 401/404/429/5xx, and a
// name that never resolves.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRegistryClient, type RegistryClientOptions } from "@/lib/adapters/registries/client";
import { describeRegistryFailure, registryFailureOf } from "@/lib/domain/upstream";
import { startReplayServer, type ReplayServer } from "@/tests/support/replay-server";
import { loopbackOnlyFetch } from "@/tests/support/registry";

const app = { host: "registry.example.com", path: "team/app" };
let replay: ReplayServer;

beforeAll(async () => {
  replay = await startReplayServer([]);
});
afterAll(async () => {
  await replay.close();
});

async function lineFor(over: Partial<RegistryClientOptions>, repo = app): Promise<string> {
  const client = createRegistryClient({ fetch: loopbackOnlyFetch, resolveBaseUrl: () => replay.url, maxConcurrencyPerHost: 1, ...over });
  try {
    await client.listTags(repo);
  } catch (err) {
    return describeRegistryFailure(registryFailureOf(repo.host, err));
  }
  throw new Error("listTags did not fail");
}

/** A port that nothing listens on: bound once, then closed. */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("registry failures as one line", () => {
  it.each<[string, { status: number; headers?: Record<string, string>; body?: unknown }, string]>([
    ["401 anonymous", { status: 401, body: { errors: [{ code: "UNAUTHORIZED", message: "authentication required" }] } }, "401 from registry.example.com: private repository, check it with an agent"],
    ["403", { status: 403 }, "403 from registry.example.com: private repository, check it with an agent"],
    ["404", { status: 404, body: { errors: [{ code: "NAME_UNKNOWN", message: "repository name not known to registry" }] } }, "404 from registry.example.com: repository not found"],
    ["429 with Retry-After", { status: 429, headers: { "retry-after": "300" } }, "429 from registry.example.com: rate limited, retrying in 5 min"],
    ["503", { status: 503 }, "503 from registry.example.com: registry error, retrying"],
    ["200 that is not JSON", { status: 200, body: "<html>captive portal</html>" }, "registry.example.com: malformed response"],
  ])("%s", async (_name, reply, expected) => {
    replay.setRoutes([{ path: "/v2/team/app/tags/list", reply }]);
    expect(await lineFor({})).toBe(expected);
  });

  it("a registry that does not answer in time", async () => {
    replay.setRoutes([{ path: "/v2/team/app/tags/list", reply: { delayMs: 1_000, body: { tags: [] } } }]);
    expect(await lineFor({ timeoutMs: 100 })).toBe("registry.example.com: no answer (timed out)");
  });

  it("a registry that refuses the connection", async () => {
    const port = await closedPort();
    expect(await lineFor({ resolveBaseUrl: () => `http://127.0.0.1:${port}` })).toBe("registry.example.com: connection refused");
  });

  it("a name that does not resolve names the host the request went to", async () => {
    const line = await lineFor({ fetch: globalThis.fetch, resolveBaseUrl: undefined }, { host: "registry.invalid", path: "team/app" });
    expect(line).toBe("registry.invalid: name not resolved");
  });
});
