// Signed badge addresses: what a member is given loads without sign-in; any
// change to service, environment, key id or signature is a plain 404; and
// `driftwatch badges reset` invalidates every address at once.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { api, baseUrl, makeWorkspace, type TestWorkspace } from "../support/api";
import { settled } from "../support/settle";

const ROOT = path.resolve(import.meta.dirname, "../..");
const D = (n: number) => `sha256:${String(n).repeat(64).slice(0, 64)}`;
let ws: TestWorkspace;

const workload = (service: string, image: string, digest: string) => ({
  service, container: service, main: true, image, digest, platform_digest: null, platform: "linux/amd64", since: "2026-11-12T08:00:00Z",
});

async function report(environment: string, workloads: object[]) {
  const res = await api(ws.agentKey).post("/api/v1/agent/report", {
    environment, target: { name: `docker@${environment}`, kind: "docker" }, observed_at: "2026-11-20T10:00:00Z", workloads,
  });
  expect(res.status).toBe(202);
  await settled(ws);
}

async function address(service: string, env?: string): Promise<{ url: string; markdown: string }> {
  const res = await api(ws.member).get(`/api/v1/services/${service}/badge${env ? `?env=${env}` : ""}`);
  expect(res.status).toBe(200);
  return res.body;
}

/** Fetch a badge URL as an anonymous README reader would. */
async function load(url: string) {
  const res = await fetch(url, { redirect: "manual" });
  return { status: res.status, type: res.headers.get("content-type"), cache: res.headers.get("cache-control"), body: await res.text() };
}

function resetWithCli() {
  return spawnSync(process.execPath, [path.join(ROOT, "bin/driftwatch.mjs"), "badges", "reset", "--workspace", ws.name, "--json"], {
    cwd: ROOT, env: { ...process.env, DATABASE_URL: inject("databaseUrl") }, encoding: "utf8", timeout: 60_000,
  });
}

beforeAll(async () => {
  ws = await makeWorkspace("badges");
  await report("staging", [workload("web", "nginx:1.27.2", D(1)), workload("api", "ghcr.io/acme/api:2.4.0", D(2))]);
  await report("production", [workload("web", "nginx:1.27.2", D(1))]);
});

describe("badge addresses", () => {
  it("gives members an address and markdown; viewers are refused", async () => {
    const { url, markdown } = await address("web", "production");
    expect(url).toMatch(new RegExp(`^${baseUrl()}/badge/[A-Za-z0-9_-]+/web\\.svg\\?env=production&sig=[A-Za-z0-9_-]{43}$`));
    expect(markdown).toBe(`[![web · production](${url})](${baseUrl()}/services/web)`);
    expect((await api(ws.viewer).get("/api/v1/services/web/badge")).status).toBe(403);
    expect((await api(ws.member).get("/api/v1/services/nope/badge")).status).toBe(404);
    expect((await api(ws.member).get("/api/v1/services/web/badge?env=nowhere")).status).toBe(404);
  });

  it("serves the SVG without sign-in, cacheable for five minutes", async () => {
    const one = await load((await address("web", "production")).url);
    expect(one).toMatchObject({ status: 200, type: "image/svg+xml; charset=utf-8", cache: "public, max-age=300" });
    expect(one.body).toMatch(/^<svg[^>]*role="img" aria-label="web · production: 1\.27\.2, [a-z ]+"/);
    const all = await load((await address("web")).url);
    expect(all.status).toBe(200);
    expect(all.body).toContain('aria-label="web: 1.27.2');
  });

  it("answers 404 for an address forged for another service or environment", async () => {
    const { url } = await address("web", "production");
    const u = new URL(url);
    const otherService = new URL(u);
    otherService.pathname = u.pathname.replace("/web.svg", "/api.svg");
    const otherEnv = new URL(u);
    otherEnv.searchParams.set("env", "staging");
    const noEnv = new URL(u);
    noEnv.searchParams.delete("env");
    const badSig = new URL(u);
    badSig.searchParams.set("sig", u.searchParams.get("sig")!.replace(/^./, (c) => (c === "A" ? "B" : "A")));
    const shortSig = new URL(u);
    shortSig.searchParams.set("sig", "abc");
    const otherKey = new URL(u);
    otherKey.pathname = u.pathname.replace(/\/badge\/[^/]+\//, "/badge/AAAAAAAAAAAAAAAA/");
    const unknownService = new URL(url.replace("/web.svg", "/ghost.svg"));

    const answers = await Promise.all([otherService, otherEnv, noEnv, badSig, shortSig, otherKey, unknownService].map((x) => load(x.toString())));
    for (const a of answers) expect(a).toMatchObject({ status: 404, body: "Not found\n" });
  });

  it("does not sign an address for another workspace's service", async () => {
    const other = await makeWorkspace("badges-other");
    const res = await api(other.member).get("/api/v1/services/web/badge");
    expect(res.status).toBe(404);
  });

  it("stops loading every address after `driftwatch badges reset`, and hands out new ones", async () => {
    const before = [(await address("web")).url, (await address("web", "staging")).url, (await address("api", "staging")).url];
    for (const url of before) expect((await load(url)).status).toBe(200);

    const r = resetWithCli();
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ key_id: expect.any(String), reset_at: expect.any(String) });

    for (const url of before) expect(await load(url)).toMatchObject({ status: 404, body: "Not found\n" });
    const fresh = (await address("web")).url;
    expect(before).not.toContain(fresh);
    expect((await load(fresh)).status).toBe(200);
  });
});
