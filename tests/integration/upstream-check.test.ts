// Upstream checks against a real registry on loopback: tags are stored, a
// moving tag resolves to its exact version by index digest and by platform
// digest, and a digest with no match is not looked up again within a day.
import { beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { api, makeWorkspace, testDb, type TestWorkspace } from "../support/api";
import { registryPusher, type PushedImage } from "../support/registry";

let ws: TestWorkspace;
const repo = `acme/web-${Date.now().toString(36)}`;
let image: string;
const pushed: Record<string, PushedImage> = {};
const UNKNOWN = `sha256:${"e".repeat(64)}`;

async function waitFor<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 300));
  }
}

beforeAll(async () => {
  ws = await makeWorkspace("check");
  const pusher = registryPusher(inject("registryUrl"));
  for (const tag of ["1.27.1", "1.27.3", "1.28.0"]) pushed[tag] = await pusher.pushImage(repo, tag, { platforms: ["linux/amd64", "linux/arm64"] });
  await pusher.tagExisting(repo, "1.27", "1.27.3");
  await pusher.tagExisting(repo, "latest", "1.28.0");
  image = `${inject("registryHost")}/${repo}`;
  const amd64Of128 = pushed["1.28.0"]!.platforms.find((p) => p.platform === "linux/amd64")!.digest;
  const res = await api(ws.agentKey).post("/api/v1/agent/report", {
    environment: "production",
    target: { name: "docker@prod-1", kind: "docker" },
    observed_at: new Date().toISOString(),
    workloads: [
      { service: "web", container: "web", main: true, image: `${image}:1.27`, digest: pushed["1.27.3"]!.digest, platform_digest: null, platform: "linux/amd64", since: "2026-11-01T00:00:00Z" },
      { service: "edge", container: "edge", main: true, image: `${image}:latest`, digest: null, platform_digest: amd64Of128, platform: "linux/amd64", since: "2026-11-02T00:00:00Z" },
      { service: "old", container: "old", main: true, image: `${image}:latest`, digest: UNKNOWN, platform_digest: null, platform: "linux/amd64", since: "2026-11-03T00:00:00Z" },
    ],
  });
  expect(res.status).toBe(202);
});

describe("upstream checks on a real registry", () => {
  it("answers 202 to Check now and resolves moving tags to exact versions", async () => {
    const check = await api(ws.member).post("/api/v1/services/web/check");
    expect(check.status).toBe(202);
    expect(check.body).toMatchObject({ service: "web", repository: `${inject("registryHost")}/${repo}`, checked_by: "server" });

    const matrix = await waitFor(
      () => api(ws.viewer).get("/api/v1/matrix").then((r) => r.body),
      (m) => m.services.find((s: { name: string }) => s.name === "edge")?.cells[0]?.version === "1.28.0",
    );
    const cell = (name: string) => matrix.services.find((s: { name: string }) => s.name === name).cells[0];
    expect(cell("web")).toMatchObject({ tag: "1.27", version: "1.27.3", display: "1.27 = 1.27.3" });
    // By platform digest: read from the two newest candidates' indexes.
    expect(cell("edge")).toMatchObject({ tag: "latest", version: "1.28.0", display: "latest = 1.28.0" });
    // No tag matches: unresolved, never a guess.
    expect(cell("old")).toMatchObject({ tag: "latest", version: null });
    expect(matrix.services.find((s: { name: string }) => s.name === "web").upstream).toMatchObject({ newest: "1.28.0", checked_by: "server" });

    const service = await api(ws.viewer).get("/api/v1/services/web");
    expect(service.body).toMatchObject({ checked_by: "server", last_check: { error: null } });
    expect(service.body.last_check.at).not.toBeNull();
  });

  it("gives history rows of moving tags the version their digest resolved to, rows stored before the resolution too", async () => {
    // The rows were stored by the report in beforeAll, before any check resolved their digests.
    await waitFor(() => api(ws.viewer).get("/api/v1/matrix").then((r) => r.body), (m) => m.services.find((s: { name: string }) => s.name === "edge")?.cells[0]?.version === "1.28.0");
    const history = (await api(ws.viewer).get("/api/v1/history")).body.items as { service: string; tag: string; version: string | null }[];
    expect(history.map((r) => [r.service, r.tag, r.version]).sort()).toEqual([
      ["edge", "latest", "1.28.0"],
      ["old", "latest", null],
      ["web", "1.27", "1.27.3"],
    ]);
    // The drifts and the updates list speak of the same exact versions.
    const drifts = (await api(ws.viewer).get("/api/v1/drifts?kind=upstream")).body.items as { service: string; running: string | null; expected: string | null }[];
    expect(drifts.filter((d) => d.service !== "old").map((d) => [d.service, d.running, d.expected])).toEqual([["web", "1.27.3", "1.28.0"]]);
    const updates = (await api(ws.viewer).get("/api/v1/updates")).body.items as { service: string; running: string | null; target_version: string | null }[];
    expect(updates.filter((u) => u.service === "web").map((u) => [u.running, u.target_version])).toEqual([["1.27.3", "1.28.0"]]);
    // A line tag whose digest is unknown upstream is not its own version either.
    const res = await api(ws.agentKey).post("/api/v1/agent/report", {
      environment: "staging",
      target: { name: "docker@staging-1", kind: "docker" },
      observed_at: new Date().toISOString(),
      workloads: [
        { service: "web", container: "web", main: true, image: `${image}:1.27`, digest: UNKNOWN, platform_digest: null, platform: "linux/amd64", since: "2026-11-04T00:00:00Z" },
        { service: "exact", container: "exact", main: true, image: `${image}:1.27.1`, digest: null, platform_digest: null, platform: "linux/amd64", since: "2026-11-04T00:00:00Z" },
      ],
    });
    expect(res.status).toBe(202);
    const staging = (await api(ws.viewer).get("/api/v1/history?environment=staging")).body.items as { service: string; tag: string; version: string | null }[];
    expect(staging.map((r) => [r.service, r.tag, r.version]).sort()).toEqual([
      ["exact", "1.27.1", "1.27.1"],
      ["web", "1.27", null],
    ]);
  });

  it("looks each digest up once, and an unmatched one again only after a day", async () => {
    const db = testDb();
    const repoRow = await db.upstreamRepository.findFirstOrThrow({ where: { key: `${inject("registryHost")}/${repo}` } });
    const before = await db.digestResolution.findMany({ where: { repositoryId: repoRow.id }, orderBy: { digest: "asc" } });
    expect(before.find((r) => r.digest === UNKNOWN)).toMatchObject({ tag: null });
    const retryAt = before.find((r) => r.digest === UNKNOWN)!.retryAt!;
    expect(retryAt.getTime() - before.find((r) => r.digest === UNKNOWN)!.resolvedAt.getTime()).toBe(86_400_000);

    await db.upstreamRepository.update({ where: { id: repoRow.id }, data: { checkedAt: null } });
    await api(ws.member).post("/api/v1/services/web/check");
    await waitFor(() => db.upstreamRepository.findUniqueOrThrow({ where: { id: repoRow.id } }), (r) => r.checkedAt !== null);
    const after = await db.digestResolution.findMany({ where: { repositoryId: repoRow.id }, orderBy: { digest: "asc" } });
    expect(after.map((r) => [r.digest, r.tag, r.resolvedAt.toISOString()])).toEqual(before.map((r) => [r.digest, r.tag, r.resolvedAt.toISOString()]));
  });

  it("stores the tag list and checks a repository shared by several services once", async () => {
    const db = testDb();
    const rows = await db.upstreamRepository.findMany({ where: { key: `${inject("registryHost")}/${repo}` } });
    expect(rows).toHaveLength(1);
    const tags = await db.upstreamTag.findMany({ where: { repositoryId: rows[0]!.id }, orderBy: { name: "asc" } });
    expect(tags.map((t) => t.name)).toEqual(["1.27", "1.27.1", "1.27.3", "1.28.0", "latest"]);
  });

  it("refuses Check now to a viewer and answers 404 for an unknown service", async () => {
    expect((await api(ws.viewer).post("/api/v1/services/web/check")).status).toBe(403);
    expect((await api(ws.member).post("/api/v1/services/nope/check")).status).toBe(404);
  });
});
