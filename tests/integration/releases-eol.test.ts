// Release notes and end of life, wired into checks: forge releases and
// endoflife.date products are fetched for the repositories services run,
// conditionally and rarely, from loopback replays of the real APIs; with
// end-of-life lookups off, nothing is requested at all.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEolClient } from "@/lib/adapters/eol";
import { createForgeClients } from "@/lib/adapters/forges";
import { createRegistryClient } from "@/lib/adapters/registries/client";
import { loadConfig } from "@/lib/config";
import { getMatrix } from "@/lib/services/matrix/get";
import type { CheckDeps } from "@/lib/services/upstream/check-repository";
import { syncEol } from "@/lib/services/upstream/sync-eol";
import { syncReleasesFor } from "@/lib/services/upstream/sync-releases";
import { api, makeWorkspace, testDb, type TestWorkspace } from "../support/api";
import { fixture, startReplayServer, type ReplayServer, type ReplyInit } from "../support/replay-server";

type Exchange = { status: number; headers: Record<string, string>; body: unknown };
let ws: TestWorkspace;
let github: ReplayServer;
let eol: ReplayServer;

function deps(opts: { eolEnabled: boolean }): CheckDeps {
  const config = loadConfig({}, { githubApiUrl: github.url, eolApiUrl: eol.url + "/api/v1", eolEnabled: opts.eolEnabled });
  return {
    db: testDb(),
    config,
    now: new Date(),
    clients: {
      registry: createRegistryClient(),
      forges: createForgeClients({ githubApiUrl: github.url }),
      eol: createEolClient({ apiUrl: eol.url + "/api/v1", enabled: opts.eolEnabled }),
    },
  };
}

beforeAll(async () => {
  ws = await makeWorkspace("releases");
  const page1 = fixture<Exchange>("forges/github/releases-page1.json");
  const page2 = fixture<Exchange>("forges/github/releases-page2.json");
  github = await startReplayServer([]);
  github.setRoutes([
    {
      path: "/repos/nginx/nginx/releases",
      reply: (req): ReplyInit =>
        req.headers["if-none-match"] === page1.headers.etag
          ? { status: 304, headers: { etag: page1.headers.etag! } }
          : { status: 200, headers: { ...page1.headers, link: page1.headers.link!.replaceAll("{base}", github.url) }, body: page1.body },
    },
    { path: "/repositories/7832934/releases", reply: { status: 200, headers: page2.headers, body: page2.body } },
  ]);
  const nginx = fixture<Exchange>("eol/product-nginx.json");
  const purls = fixture<Exchange>("eol/identifiers-purl.json");
  eol = await startReplayServer([
    { path: "/api/v1/products/nginx", reply: { status: 200, headers: nginx.headers, body: nginx.body } },
    { path: "/api/v1/identifiers/purl", reply: { status: 200, headers: purls.headers, body: purls.body } },
  ]);
  const res = await api(ws.agentKey).post("/api/v1/agent/report", {
    environment: "production",
    target: { name: "docker@prod", kind: "docker" },
    observed_at: new Date().toISOString(),
    workloads: [{ service: "proxy", container: "proxy", main: true, image: "nginx:1.27.3", digest: null, platform_digest: null, platform: null, since: "2026-10-01T00:00:00Z" }],
  });
  expect(res.status).toBe(202);
});

afterAll(async () => {
  await github?.close();
  await eol?.close();
});

describe("release notes from the forge named by the catalog", () => {
  it("reads every page once, then asks conditionally and only after an hour", async () => {
    const d = deps({ eolEnabled: false });
    expect(await syncReleasesFor(d, "docker.io/library/nginx", null, { force: true })).toBe(1);
    const repo = await testDb().forgeRepository.findUniqueOrThrow({ where: { kind_name: { kind: "github", name: "nginx/nginx" } }, include: { releases: true } });
    expect(repo.releases.map((r) => r.tag)).toEqual(expect.arrayContaining(["release-1.29.1", "release-1.27.3"]));
    expect(repo.releases.map((r) => r.tag)).not.toContain("release-1.29.2-draft");
    expect(github.count("/repos/nginx/nginx/releases")).toBe(1);
    expect(github.count("/repositories/7832934/releases")).toBe(1);

    // Within the hour: no request at all.
    expect(await syncReleasesFor(d, "docker.io/library/nginx", null)).toBe(0);
    expect(github.requests).toHaveLength(2);
    // Forced (the tag list changed): a conditional request answered 304.
    await syncReleasesFor(d, "docker.io/library/nginx", null, { force: true });
    expect(github.requests.at(-1)?.headers["if-none-match"]).toBeTruthy();
    expect(await testDb().release.count({ where: { forgeRepositoryId: repo.id } })).toBe(repo.releases.length);
  });

  it("states the release source on the service", async () => {
    const res = await api(ws.viewer).get("/api/v1/services/proxy");
    expect(res.body).toMatchObject({ repository: "docker.io/library/nginx", repository_source: "image", release_source: { kind: "github", repository: "nginx/nginx", from: "catalog" } });
  });
});

describe("end of life", () => {
  it("with lookups off makes zero requests to the end-of-life source", async () => {
    const before = eol.requests.length;
    expect(await syncEol(deps({ eolEnabled: false }), { force: true })).toEqual({ requests: 0 });
    expect(eol.requests.length).toBe(before);
  });

  it("caches the product for a day and shows the running cycle's end in the matrix", async () => {
    const d = deps({ eolEnabled: true });
    await syncEol(d, { force: true });
    expect(eol.count("/api/v1/products/nginx")).toBe(1);
    await syncEol(d);
    expect(eol.count("/api/v1/products/nginx")).toBe(1);

    const matrix = await getMatrix({ ctx: { ...ws.ctx, config: d.config }, input: {} });
    const cell = matrix.services.find((s) => s.name === "proxy")!.cells[0]!;
    expect(cell.eol).toEqual({ product: "nginx", cycle: "1.27", eol_date: "2025-06-24", state: "passed" });
  });

  it("honours eol: none in the policy", async () => {
    await api(ws.member).patch("/api/v1/services/proxy", { policy: { eol: "none" } });
    const matrix = await getMatrix({ ctx: { ...ws.ctx, config: deps({ eolEnabled: true }).config }, input: {} });
    expect(matrix.services.find((s) => s.name === "proxy")!.cells[0]!.eol).toBeNull();
  });
});

describe("forge hosts", () => {
  it("refuses a policy naming another GitLab host with 422, before anything is stored", async () => {
    const res = await api(ws.member).patch("/api/v1/services/proxy", { policy: { gitlab: "gitlab.evil.example/group/project" } });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].pointer).toBe("/policy/gitlab");
    expect((await api(ws.viewer).get("/api/v1/services/proxy")).body.policy).not.toHaveProperty("gitlab");
  });
});
