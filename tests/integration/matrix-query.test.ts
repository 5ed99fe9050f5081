// Every matrix query is a selection from the workspace's whole matrix
// (lib/services/matrix/get.ts): filters, pages and totals as the API documents them.
import { beforeAll, describe, expect, it } from "vitest";
import { api, makeWorkspace, type TestWorkspace } from "../support/api";
import { settled } from "../support/settle";

let ws: TestWorkspace;
const D = (n: number) => `sha256:${String(n).repeat(64).slice(0, 64)}`;
const workload = (service: string, tag: string, n: number) => ({
  service, container: "app", main: true, image: `nginx:${tag}`, digest: D(n), platform_digest: null, platform: "linux/amd64", since: "2026-11-10T08:00:00Z",
});
const names = (body: { services: { name: string }[] }) => body.services.map((s) => s.name);

beforeAll(async () => {
  ws = await makeWorkspace("mq");
  const report = (environment: string, workloads: unknown[]) =>
    api(ws.agentKey).post("/api/v1/agent/report", { environment, target: { name: `docker@${environment}`, kind: "docker" }, observed_at: "2026-11-20T10:00:00Z", workloads });
  expect((await report("staging", [workload("alpha", "1.27.1", 1), workload("beta", "1.27.1", 1), workload("gamma", "1.25.0", 2)])).status).toBe(202);
  expect((await report("production", [workload("alpha", "1.26.0", 3), workload("gamma", "1.25.0", 2)])).status).toBe(202);
  expect((await api(ws.member).patch("/api/v1/services/alpha", { team: "blue" })).status).toBe(200);
  expect((await api(ws.member).patch("/api/v1/services/gamma", { team: "blue" })).status).toBe(200);
  await settled(ws);
});

describe("GET /api/v1/matrix queries", () => {
  it("filter by team, name and environment, with the total before paging", async () => {
    const all = (await api(ws.viewer).get("/api/v1/matrix")).body;
    expect(names(all)).toEqual(["alpha", "beta", "gamma"]);
    expect(all.total).toBe(3);
    const blue = (await api(ws.viewer).get("/api/v1/matrix?team=blue")).body;
    expect([names(blue), blue.total]).toEqual([["alpha", "gamma"], 2]);
    expect(names((await api(ws.viewer).get("/api/v1/matrix?q=ET")).body)).toEqual(["beta"]);
    const prod = (await api(ws.viewer).get("/api/v1/matrix?environment=production")).body;
    expect([names(prod), prod.total]).toEqual([["alpha", "gamma"], 2]);
    // A service's cells are the same whichever query selects it.
    expect(prod.services[0]).toEqual(all.services[0]);
    expect((await api(ws.viewer).get("/api/v1/matrix?environment=nowhere")).body).toMatchObject({ services: [], total: 0 });
    const page = (await api(ws.viewer).get("/api/v1/matrix?team=blue&limit=1&offset=1")).body;
    expect([names(page), page.total]).toEqual([["gamma"], 2]);
    expect(page.environments).toEqual(all.environments);
  });

  it("filter by drift kind: the services with that drift in any environment", async () => {
    const all = (await api(ws.viewer).get("/api/v1/matrix")).body as { services: { name: string; cells: { drifts: string[] }[] }[] };
    const kinds = [...new Set(all.services.flatMap((s) => s.cells.flatMap((c) => c.drifts)))];
    expect(kinds).toContain("env"); // alpha runs 1.26.0 in production behind 1.27.1 in staging
    for (const kind of kinds) {
      const expected = all.services.filter((s) => s.cells.some((c) => c.drifts.includes(kind))).map((s) => s.name);
      const got = (await api(ws.viewer).get(`/api/v1/matrix?kind=${kind}`)).body;
      expect([names(got), got.total], kind).toEqual([expected, expected.length]);
    }
  });
});
