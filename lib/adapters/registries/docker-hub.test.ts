// Docker Hub's tags API, replayed from recorded pages.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createDockerHubClient, isDockerHub } from "@/lib/adapters/registries/docker-hub";
import { fixture, startReplayServer, type ReplayServer } from "@/tests/support/replay-server";
import { loopbackOnlyFetch, recorded, type RecordedExchange } from "@/tests/support/registry";

type HubPage = { results: { name: string; digest: string; images: { digest: string }[] }[] };
const pages = fixture<{ pages: RecordedExchange[] }>("registries/docker-hub-tags-api.json").pages;
const page = (i: number) => pages[i] as RecordedExchange;

let replay: ReplayServer;
const hosts: string[] = [];
const hub = () =>
  createDockerHubClient({
    fetch: loopbackOnlyFetch,
    resolveBaseUrl: (host) => {
      hosts.push(host);
      return replay.url;
    },
  });

beforeAll(async () => {
  replay = await startReplayServer([]);
});
afterAll(async () => {
  await replay.close();
});
beforeEach(() => {
  replay.requests.length = 0;
  hosts.length = 0;
  replay.setRoutes([
    { path: "/v2/repositories/library/nginx/tags", reply: (_req, url) => recorded(page(url.searchParams.get("page") === "2" ? 1 : 0)) },
  ]);
});

describe("Docker Hub tags API", () => {
  it("lists tags with index and platform digests across pages, newest first", async () => {
    const list = await hub().listTags("library/nginx");
    expect(list.isComplete).toBe(true);
    expect(list.tags.map((t) => t.name)).toEqual(["latest", "mainline", "1.27.3", "1.27", "1", "1.27.2", "1.26.2"]);
    const first = (page(0).body as HubPage).results[0];
    expect(list.tags[0]).toEqual({
      name: "latest",
      digest: first?.digest,
      mediaType: "application/vnd.oci.image.index.v1+json",
      lastPushed: "2026-11-12T03:14:27.111111Z",
      lastUpdated: "2026-11-12T03:14:27.111111Z",
      images: [
        { digest: first?.images[0]?.digest, os: "linux", architecture: "amd64" },
        { digest: first?.images[1]?.digest, os: "linux", architecture: "arm64", variant: "v8" },
      ],
    });
    // Moving tags share the exact version's digest: resolution without registry HEADs.
    expect(list.tags.find((t) => t.name === "1.27")?.digest).toBe(list.tags.find((t) => t.name === "1.27.3")?.digest);
    expect(replay.requests.map((r) => r.path)).toEqual([
      "/v2/repositories/library/nginx/tags?page_size=100",
      "/v2/repositories/library/nginx/tags?page=2&page_size=100",
    ]);
    expect(new Set(hosts)).toEqual(new Set(["hub.docker.com"]));
  });

  it("stops after maxPages and says the list is incomplete", async () => {
    const list = await hub().listTags("library/nginx", { maxPages: 1 });
    expect(list).toMatchObject({ isComplete: false });
    expect(list.tags).toHaveLength(5);
    expect(replay.requests).toHaveLength(1);
  });

  it("never follows a next page on another host", async () => {
    replay.setRoutes([
      { path: "/v2/repositories/library/nginx/tags", reply: { ...recorded(page(0)), body: { ...(page(0).body as object), next: "https://evil.example/v2/repositories/library/nginx/tags?page=2" } } },
    ]);
    await expect(hub().listTags("library/nginx")).rejects.toMatchObject({ code: "registry_unavailable", message: expect.stringContaining("evil.example") });
    expect(replay.requests).toHaveLength(1);
  });

  it("stops a next page that loops", async () => {
    replay.setRoutes([
      { path: "/v2/repositories/library/nginx/tags", reply: { ...recorded(page(0)), body: { ...(page(0).body as object), next: "https://hub.docker.com/v2/repositories/library/nginx/tags?page_size=100" } } },
    ]);
    await expect(hub().listTags("library/nginx")).rejects.toMatchObject({ code: "registry_unavailable", message: expect.stringContaining("loops") });
  });

  it.each([
    ["404", { status: 404, body: { message: "object not found", errinfo: {} } }, "not_found"],
    ["429", { status: 429, headers: { "retry-after": "3600" }, body: "Too Many Requests" }, "rate_limited"],
    ["a malformed page", { status: 200, body: { results: [{ nom: "x" }] } }, "registry_unavailable"],
    ["a 503", { status: 503, body: "<html>unavailable</html>" }, "registry_unavailable"],
  ])("%s", async (_name, reply, code) => {
    replay.setRoutes([{ path: "/v2/repositories/library/nginx/tags", reply }]);
    await expect(hub().listTags("library/nginx")).rejects.toMatchObject({ code });
  });

  it("rejects a path that is not namespace/repository", async () => {
    await expect(hub().listTags("nginx")).rejects.toMatchObject({ code: "bad_request" });
    await expect(hub().listTags("a/b/c")).rejects.toMatchObject({ code: "bad_request" });
  });

  it.each([
    ["docker.io", true],
    ["index.docker.io", true],
    ["ghcr.io", false],
  ])("isDockerHub(%s) = %s", (host, expected) => {
    expect(isDockerHub(host)).toBe(expected);
  });
});
