// Compose files in Git, read by the server: a real repository made by the
// test, interpolation with .env, a branch update seen on refresh, and the
// matrix showing declared versions until something runs there.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { refreshComposeTargets } from "@/lib/services/targets/refresh-compose";
import { api, makeWorkspace, testDb, type TestWorkspace } from "../support/api";

let ws: TestWorkspace;
let repo: string;
let dataDir: string;

const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.test", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.test" } });

async function refresh(name: string) {
  const target = await testDb().target.findFirstOrThrow({ where: { workspaceId: ws.id, name } });
  const config = loadConfig({ DRIFTWATCH_DATA_DIR: dataDir });
  for (let i = 0; i < 20; i++) {
    const [outcome] = await refreshComposeTargets({ ctx: { db: testDb(), config, now: new Date() }, input: { targetIds: [target.id] } });
    if (outcome) return outcome;
    await new Promise((r) => setTimeout(r, 250)); // the server's own scheduler holds it right now
  }
  throw new Error("target never leased");
}

const cell = async (service: string, env: string) =>
  (await api(ws.viewer).get("/api/v1/matrix")).body.services.find((s: { name: string }) => s.name === service)?.cells.find((c: { environment: string }) => c.environment === env);

beforeAll(() => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "dw-compose-data-"));
  repo = mkdtempSync(path.join(os.tmpdir(), "dw-compose-repo-"));
  git("init", "--quiet", "--initial-branch=main");
  mkdirSync(path.join(repo, "staging"));
  writeFileSync(path.join(repo, "staging/docker-compose.yml"), "services:\n  web:\n    image: nginx:${NGINX_TAG:-1.25.0}\n  api:\n    image: ghcr.io/acme/api:${API_TAG}\n");
  writeFileSync(path.join(repo, "staging/.env"), "NGINX_TAG=1.27.1\nAPI_TAG=2.4.0\n");
  git("add", "-A");
  git("commit", "--quiet", "-m", "staging");
});

afterAll(() => {
  rmSync(repo, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

beforeAll(async () => {
  ws = await makeWorkspace("compose");
});

describe("Compose-in-Git targets", () => {
  it("creates a target and records what the files declare", async () => {
    const created = await api(ws.member).post("/api/v1/targets", { environment: "staging", kind: "compose_git", repository_url: `file://${repo}`, branch: "main", paths: ["staging/docker-compose.yml"] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "compose@staging", kind: "compose_git", environment: "staging", branch: "main", paths: ["staging/docker-compose.yml"] });
    // A new target is due at once: the server's own scheduler may read it first, and this refresh then finds
    // nothing new (`changed` is tested below, on a branch update only a refresh can see).
    const outcome = await refresh("compose@staging");
    expect(outcome).toMatchObject({ ok: true });
    expect(await cell("web", "staging")).toMatchObject({ tag: "1.27.1", version: "1.27.1", declared: true });
    expect(await cell("api", "staging")).toMatchObject({ tag: "2.4.0", declared: true });
    const targets = (await api(ws.viewer).get("/api/v1/targets")).body.items;
    expect(targets.find((t: { name: string }) => t.name === "compose@staging")).toMatchObject({ last_commit: expect.stringMatching(/^[0-9a-f]{40}$/), last_error: null, workloads: 2 });
  });

  it("sees a branch update on refresh and closes the old declaration", async () => {
    writeFileSync(path.join(repo, "staging/.env"), "NGINX_TAG=1.27.3\nAPI_TAG=2.4.0\n");
    git("commit", "--quiet", "-am", "bump nginx");
    const again = await refresh("compose@staging");
    expect(again).toMatchObject({ ok: true, changed: true });
    expect(await cell("web", "staging")).toMatchObject({ tag: "1.27.3", declared: true });
    const history = (await api(ws.viewer).get("/api/v1/history?service=web")).body.items;
    expect(history.map((h: { tag: string; to: string | null; declared: boolean }) => [h.tag, h.to === null, h.declared])).toEqual([["1.27.3", true, true], ["1.27.1", false, true]]);
    // Refreshing without a new commit changes nothing.
    expect(await refresh("compose@staging")).toMatchObject({ ok: true, changed: false });
  });

  it("shows what runs once a runtime target reports in the same environment", async () => {
    await api(ws.agentKey).post("/api/v1/agent/report", {
      environment: "staging", target: { name: "docker@stg-1", kind: "docker" }, observed_at: new Date().toISOString(),
      workloads: [{ service: "web", container: "web", main: true, image: "nginx:1.27.1", digest: null, platform_digest: null, platform: null, since: "2026-11-20T00:00:00Z" }],
    });
    const c = await cell("web", "staging");
    expect(c).toMatchObject({ tag: "1.27.1", declared: false });
    expect(c.targets.map((t: { name: string; declared: boolean }) => [t.name, t.declared]).sort()).toEqual([["compose@staging", true], ["docker@stg-1", false]]);
  });

  it("keeps the last state and shows the error when the repository cannot be read", async () => {
    await api(ws.member).post("/api/v1/targets", { name: "compose@broken", environment: "dev", kind: "compose_git", repository_url: `file://${repo}-missing`, branch: "main", paths: ["x.yml"] });
    const outcome = await refresh("compose@broken");
    expect(outcome.ok).toBe(false);
    const target = (await api(ws.viewer).get("/api/v1/targets")).body.items.find((t: { name: string }) => t.name === "compose@broken");
    expect(target.last_error).toMatch(/^git fetch of file:\/\/.*-missing \(main\) failed: .* does not appear to be a git repository$/);
  });

  it("refuses paths that leave the repository and URLs that are options", async () => {
    expect((await api(ws.member).post("/api/v1/targets", { environment: "dev", kind: "compose_git", repository_url: "https://example.test/r.git", paths: ["../../etc/passwd"] })).status).toBe(422);
    expect((await api(ws.member).post("/api/v1/targets", { environment: "dev", kind: "compose_git", repository_url: "--upload-pack=evil", paths: ["a.yml"] })).status).toBe(422);
  });
});
