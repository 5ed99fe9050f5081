// Report intake: history from the runtime's own clock, idempotence, stale
// reports, bad bodies, and what the matrix and history then show.
import { beforeAll, describe, expect, it } from "vitest";
import { api, makeWorkspace, testDb, type TestWorkspace } from "../support/api";

const D = (n: number) => `sha256:${String(n).repeat(64).slice(0, 64)}`;
let ws: TestWorkspace;

function report(observedAt: string, workloads: object[], target = "docker@host-1", environment = "staging") {
  return { environment, target: { name: target, kind: "docker" }, observed_at: observedAt, workloads };
}
const web = (image: string, digest: string, since: string) => ({ service: "web", container: "web", main: true, image, digest, platform_digest: null, platform: "linux/amd64", since });
const db = { service: "db", container: "postgres", main: true, image: "postgres:16.4", digest: D(9), platform_digest: null, platform: "linux/amd64", since: "2026-11-01T00:00:00Z" };

const history = async () => (await api(ws.viewer).get("/api/v1/history")).body.items;

beforeAll(async () => {
  ws = await makeWorkspace("report");
});

describe("POST /api/v1/agent/report", () => {
  it("opens history rows at each workload's since and creates the environment, target and services", async () => {
    const res = await api(ws.agentKey).post("/api/v1/agent/report", report("2026-11-20T10:00:00Z", [web("nginx:1.27.2", D(1), "2026-11-12T08:00:00Z"), db]));
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ accepted: true, changed: true, opened: 2, closed: 0 });
    const items = await history();
    expect(items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ service: "web", environment: "staging", target: "docker@host-1", tag: "1.27.2", version: "1.27.2", digest: D(1), from: "2026-11-12T08:00:00.000Z", to: null }),
        expect.objectContaining({ service: "db", tag: "16.4", from: "2026-11-01T00:00:00.000Z", to: null }),
      ]),
    );
    const envs = await api(ws.viewer).get("/api/v1/environments");
    expect(envs.body.items.map((e: { name: string }) => e.name)).toEqual(["staging"]);
    const targets = await api(ws.viewer).get("/api/v1/targets");
    expect(targets.body.items[0]).toMatchObject({ name: "docker@host-1", kind: "docker", environment: "staging", workloads: 2 });
  });

  it("changes nothing when the same report arrives again, whatever its observed_at", async () => {
    const before = await history();
    const again = await api(ws.agentKey).post("/api/v1/agent/report", report("2026-11-20T10:01:00Z", [db, web("nginx:1.27.2", D(1), "2026-11-12T08:00:00Z")]));
    expect(again.body).toMatchObject({ changed: false, opened: 0, closed: 0 });
    expect(await history()).toEqual(before);
  });

  it("closes the old version at the new one's since when the image changes", async () => {
    const res = await api(ws.agentKey).post("/api/v1/agent/report", report("2026-11-21T10:00:00Z", [web("nginx:1.27.3", D(2), "2026-11-21T09:30:00Z"), db]));
    expect(res.body).toMatchObject({ changed: true, opened: 1, closed: 1 });
    const items = await history();
    expect(items.find((i: { tag: string }) => i.tag === "1.27.2")).toMatchObject({ to: "2026-11-21T09:30:00.000Z" });
    expect(items.find((i: { tag: string }) => i.tag === "1.27.3")).toMatchObject({ from: "2026-11-21T09:30:00.000Z", to: null });
  });

  it("ignores a report older than the last accepted one", async () => {
    const before = await history();
    const res = await api(ws.agentKey).post("/api/v1/agent/report", report("2026-11-20T12:00:00Z", [web("nginx:1.20.0", D(3), "2026-11-20T11:00:00Z")]));
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ changed: false, ignored: "stale" });
    expect(await history()).toEqual(before);
  });

  it("closes a workload that is gone at the report's observed_at", async () => {
    const res = await api(ws.agentKey).post("/api/v1/agent/report", report("2026-11-22T10:00:00Z", [web("nginx:1.27.3", D(2), "2026-11-21T09:30:00Z")]));
    expect(res.body).toMatchObject({ closed: 1, opened: 0 });
    expect((await history()).find((i: { service: string }) => i.service === "db")).toMatchObject({ to: "2026-11-22T10:00:00.000Z" });
  });

  it("answers 422 for a bad body and changes nothing", async () => {
    const before = await history();
    const bad = await api(ws.agentKey).post("/api/v1/agent/report", { environment: "staging", target: { name: "docker@host-1", kind: "vm" }, observed_at: "yesterday", workloads: [{ service: "web/../x" }] });
    expect(bad.status).toBe(422);
    const pointers = bad.body.errors.map((e: { pointer: string }) => e.pointer);
    expect(pointers).toEqual(expect.arrayContaining(["/target/kind", "/observed_at"]));
    expect(await history()).toEqual(before);
  });

  it("accepts reports only with an agent key", async () => {
    const res = await api(ws.member).post("/api/v1/agent/report", report("2026-11-22T11:00:00Z", []));
    expect(res.status).toBe(403);
  });

  it("shows versions and digests in the matrix, with the oldest version per environment", async () => {
    await api(ws.agentKey).post("/api/v1/agent/report", report("2026-11-22T10:00:00Z", [web("nginx:1.26.0", D(4), "2026-11-20T00:00:00Z")], "docker@host-2"));
    const m = await api(ws.viewer).get("/api/v1/matrix");
    const row = m.body.services.find((s: { name: string }) => s.name === "web");
    expect(row.cells).toHaveLength(1);
    expect(row.cells[0]).toMatchObject({ environment: "staging", tag: "1.26.0", version: "1.26.0", declared: false });
    expect(row.cells[0].targets.map((t: { name: string; digest: string }) => [t.name, t.digest]).sort()).toEqual([["docker@host-1", D(2)], ["docker@host-2", D(4)]]);
  });

  it("removes a deleted workspace's history with its targets, services and environments", async () => {
    const gone = await makeWorkspace("report-deleted");
    const res = await api(gone.agentKey).post("/api/v1/agent/report", report("2026-11-22T10:00:00Z", [web("nginx:1.26.0", D(4), "2026-11-20T00:00:00Z"), db]));
    expect(res.body).toMatchObject({ changed: true, opened: 2 });
    await api(gone.viewer).get("/api/v1/drifts"); // a read waits for the evaluation the report asked for
    expect(await testDb().run.count({ where: { workspaceId: gone.id } })).toBe(2);

    await testDb().workspace.delete({ where: { id: gone.id } });
    expect(await testDb().run.count({ where: { workspaceId: gone.id } })).toBe(0);
  });

  it("removes a target's, a service's or an environment's history with it, and nobody else's", async () => {
    const ws2 = await makeWorkspace("report-parents");
    const post = (target: string, environment: string, workloads: object[]) => api(ws2.agentKey).post("/api/v1/agent/report", report("2026-11-22T10:00:00Z", workloads, target, environment));
    expect((await post("docker@a", "dev", [web("nginx:1.26.0", D(4), "2026-11-20T00:00:00Z"), db])).status).toBe(202);
    expect((await post("docker@b", "dev", [web("nginx:1.26.0", D(4), "2026-11-20T00:00:00Z")])).status).toBe(202);
    expect((await post("docker@c", "prod", [web("nginx:1.25.0", D(5), "2026-11-19T00:00:00Z")])).status).toBe(202);
    const rows = async () => (await testDb().run.findMany({ where: { workspaceId: ws2.id }, select: { serviceId: true, targetId: true } })).length;
    const id = async (table: "target" | "service" | "environment", name: string) =>
      (await (testDb()[table] as unknown as { findFirstOrThrow: (q: object) => Promise<{ id: string }> }).findFirstOrThrow({ where: { workspaceId: ws2.id, name }, select: { id: true } })).id;
    const before = await testDb().run.count({ where: { workspaceId: ws.id } });
    expect(await rows()).toBe(4);

    await testDb().target.delete({ where: { id: await id("target", "docker@b") } });
    expect(await rows()).toBe(3);
    await testDb().service.delete({ where: { id: await id("service", "db") } });
    expect(await rows()).toBe(2);
    await testDb().environment.delete({ where: { id: await id("environment", "prod") } });
    expect(await rows()).toBe(1);
    expect(await testDb().run.count({ where: { workspaceId: ws.id } })).toBe(before);
  });

  it("creates again a service deleted since the server last saw it, for a new target as for a known one", async () => {
    const ws3 = await makeWorkspace("report-recreate");
    const post = (target: string, observedAt: string, image = "nginx:1.26.0") =>
      api(ws3.agentKey).post("/api/v1/agent/report", report(observedAt, [web(image, D(4), "2026-11-20T00:00:00Z")], target, "dev"));
    const service = () => testDb().service.findFirst({ where: { workspaceId: ws3.id, name: "web" } });
    expect((await post("docker@a", "2026-11-22T10:00:00Z")).status).toBe(202);
    // A new target, then the first one with a new version (the same report again would change nothing).
    for (const [target, observedAt, image] of [["docker@b", "2026-11-22T11:00:00Z", "nginx:1.26.0"], ["docker@a", "2026-11-22T12:00:00Z", "nginx:1.26.1"]] as const) {
      await testDb().service.delete({ where: { id: (await service())!.id } });
      const res = await post(target, observedAt, image);
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      expect(res.body).toMatchObject({ changed: true, opened: 1 });
      const recreated = await service();
      expect(recreated).not.toBeNull();
      expect(await testDb().run.count({ where: { workspaceId: ws3.id, serviceId: recreated!.id, to: null } })).toBe(1);
    }
  });

  it("refuses a history row that names a service, environment or target that does not exist", async () => {
    const [row] = await testDb().run.findMany({ where: { workspaceId: ws.id }, take: 1 });
    const missing = "00000000-0000-4000-8000-000000000000";
    const before = await testDb().run.count({ where: { workspaceId: ws.id } });
    for (const column of ["service_id", "environment_id", "target_id"]) {
      const insert = testDb().$executeRawUnsafe(
        `INSERT INTO runs (workspace_id, service_id, environment_id, target_id, image, repository, tag, "from")
         SELECT workspace_id, ${column === "service_id" ? `'${missing}'` : "service_id"}, ${column === "environment_id" ? `'${missing}'` : "environment_id"},
                ${column === "target_id" ? `'${missing}'` : "target_id"}, image, repository, tag, "from" FROM runs WHERE id = $1`, row!.id);
      await expect(insert).rejects.toMatchObject({ meta: { driverAdapterError: { cause: { originalCode: "23503" } } } });
    }
    expect(await testDb().run.count({ where: { workspaceId: ws.id } })).toBe(before);
  });

  it("keeps workspaces apart: another workspace sees none of it", async () => {
    const other = await makeWorkspace("report-other");
    const m = await api(other.viewer).get("/api/v1/matrix");
    expect(m.body.services).toEqual([]);
  });
});
