// A Compose-in-Git target read by an agent (`driftwatch agent --compose-git`):
// the report names its repository, branch and files, intake keeps them without
// any credential in the URL, and the targets API shows them as it shows a
// server-read target's.
import { beforeAll, describe, expect, it } from "vitest";
import { api, makeWorkspace, testDb, type TestWorkspace } from "../support/api";

let ws: TestWorkspace;
const since = "2026-11-10T08:00:00Z";
const workload = { service: "web", container: "web", main: true, image: "nginx:1.27.2", digest: null, platform_digest: null, platform: null, since };
const report = (observedAt: string, target: Record<string, unknown>) => ({ environment: "staging", target, observed_at: observedAt, workloads: [workload] });
const targetNamed = async (name: string) => (await api(ws.viewer).get("/api/v1/targets")).body.items.find((t: { name: string }) => t.name === name);

beforeAll(async () => {
  ws = await makeWorkspace("compose-agent");
});

describe("an agent's compose_git target with its source", () => {
  it("stores the repository without its credentials, the branch and the files, and lists them", async () => {
    const source = { repository_url: "https://deploy-bot:glpat-SECRET-1234@git.example.com/ops/deploy.git", branch: "release", paths: ["staging/compose.yaml", "staging/extra.yaml"] };
    const res = await api(ws.agentKey).post("/api/v1/agent/report", report("2026-11-20T10:00:00Z", { name: "compose@staging", kind: "compose_git", source }));
    expect(res.status).toBe(202);
    expect(await targetNamed("compose@staging")).toMatchObject({
      kind: "compose_git", environment: "staging", read_by: "agent",
      repository_url: "https://git.example.com/ops/deploy.git", branch: "release", paths: ["staging/compose.yaml", "staging/extra.yaml"], workloads: 1,
    });
    const [row] = await testDb().$queryRaw<{ config: string }[]>`SELECT config::text AS config FROM targets WHERE workspace_id = ${ws.id}::uuid AND name = 'compose@staging'`;
    expect(row!.config).not.toContain("SECRET");
    expect(row!.config).not.toContain("deploy-bot");
  });

  it("follows a changed source even when the workloads repeat, and keeps it when a report carries none", async () => {
    const source = { repository_url: "ssh://git@git.example.com/ops/deploy.git", branch: "main", paths: ["compose.yaml"] };
    const repeated = await api(ws.agentKey).post("/api/v1/agent/report", report("2026-11-20T10:01:00Z", { name: "compose@staging", kind: "compose_git", source }));
    expect(repeated.body).toMatchObject({ changed: false });
    const expected = { read_by: "agent", repository_url: "ssh://git.example.com/ops/deploy.git", branch: "main", paths: ["compose.yaml"] };
    expect(await targetNamed("compose@staging")).toMatchObject(expected);
    await api(ws.agentKey).post("/api/v1/agent/report", report("2026-11-20T10:02:00Z", { name: "compose@staging", kind: "compose_git" }));
    expect(await targetNamed("compose@staging")).toMatchObject(expected);
  });

  it("is never taken for a server-read target (the server does not fetch an agent's repository)", async () => {
    const [row] = await testDb().$queryRaw<{ server_read: boolean }[]>`SELECT config ? 'repository_url' AS server_read FROM targets WHERE workspace_id = ${ws.id}::uuid AND name = 'compose@staging'`;
    expect(row!.server_read).toBe(false);
  });

  it("shows no source for an agent that sends none, and refuses a source on a runtime target", async () => {
    await api(ws.agentKey).post("/api/v1/agent/report", report("2026-11-20T10:00:00Z", { name: "compose@old-agent", kind: "compose_git" }));
    expect(await targetNamed("compose@old-agent")).toMatchObject({ read_by: "agent", repository_url: null, branch: null, paths: [] });
    const docker = await api(ws.agentKey).post("/api/v1/agent/report", report("2026-11-20T10:00:00Z", { name: "docker@h", kind: "docker", source: { repository_url: "https://x.example/r.git", branch: "main", paths: ["c.yaml"] } }));
    expect(docker.status).toBe(422);
    expect(docker.body.errors).toEqual([expect.objectContaining({ pointer: "/target/source" })]);
    expect(await targetNamed("docker@h")).toBeUndefined();
  });
});
