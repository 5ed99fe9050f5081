// A small, realistic workspace for the browser tests, made the way a user
// would: keys from the local CLI, then agent reports and API calls.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import path from "node:path";
import { expect, type APIRequestContext } from "@playwright/test";
import { OWNER } from "./owner";

const ROOT = path.resolve(import.meta.dirname, "../..");
const DAY = 86_400_000;
const REGISTRY = "registry.acme.test/shop";

/** Runs the local CLI against the test server's embedded database (see playwright.config.ts). */
export function cli(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [path.join(ROOT, "bin/driftwatch.mjs"), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: "", DRIFTWATCH_DATA_DIR: path.join(process.env.DW_E2E_DIR!, "data"), DRIFTWATCH_LOG_LEVEL: "warn" },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

export function cliValue(args: string[]): string {
  const r = cli(args);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
}

const digest = (s: string) => `sha256:${createHash("sha256").update(s).digest("hex")}`;
const ago = (days: number, now: number) => new Date(now - days * DAY).toISOString();

type Workload = { service: string; image: string; digest: string; since: string };

function report(environment: string, target: string, observedAt: string, workloads: Workload[], registryResults: object[] = []) {
  return {
    environment,
    target: { name: target, kind: target.startsWith("docker") ? "docker" : "kubernetes" },
    observed_at: observedAt,
    workloads: workloads.map((w) => ({ ...w, container: w.service, main: true, platform_digest: null, platform: "linux/amd64" })),
    registry_results: registryResults,
  };
}

/** What the agents' registry lookups found for the private repositories. */
export function registryResults() {
  return [
    { repository: `${REGISTRY}/web`, tags: ["2.3.4", "2.3.5", "2.4.0", "2.4.1", "2.5.0", "3.0.0"], digests: [], resolved: [], error: null },
    { repository: `${REGISTRY}/api`, tags: ["3.0.2", "3.1.0", "3.2.0"], digests: [], resolved: [], error: null },
    {
      repository: `${REGISTRY}/worker`, tags: ["1.8.1", "1.8.2", "1.9.0", "latest"],
      digests: [{ tag: "1.8.2", digest: digest("worker-1.8.2") }, { tag: "1.9.0", digest: digest("worker-1.9.0") }],
      resolved: [{ digest: digest("worker-1.8.2"), tag: "1.8.2" }, { digest: digest("worker-1.9.0"), tag: "1.9.0" }],
      error: null,
    },
  ];
}

export type Seeded = { member: string; agentKey: string };

let seeded: Seeded | null = null;

/** Idempotent per test run: environments, three services over four targets, a month of history, teams. */
export async function seedWorkspace(request: APIRequestContext): Promise<Seeded> {
  if (seeded) return seeded;
  const member = cliValue(["token", "create", "--workspace", OWNER.workspace, "--role", "member", "--name", "e2e-seed"]);
  const auth = { authorization: `Bearer ${member}` };
  const existing = await request.get("/api/v1/services/web", { headers: auth });
  const agentKey = existing.status() === 200 ? "" : cliValue(["agent", "create", "--workspace", OWNER.workspace, "--name", "e2e"]);
  if (existing.status() !== 200) {
    for (const env of [{ name: "dev", position: 10 }, { name: "staging", position: 20 }, { name: "production", position: 30, production: true }]) {
      const r = await request.post("/api/v1/environments", { headers: auth, data: env });
      expect([201, 409]).toContain(r.status());
    }
    const now = Date.now();
    const agent = { authorization: `Bearer ${agentKey}` };
    const send = async (body: object) => {
      const r = await request.post("/api/v1/agent/report", { headers: agent, data: body });
      expect(r.status(), await r.text()).toBe(202);
    };
    const w = (service: string, tag: string, since: number, d = digest(`${service}-${tag}`)): Workload => ({ service, image: `${REGISTRY}/${service}:${tag}`, digest: d, since: ago(since, now) });
    // A month ago production ran older versions; the later reports close them.
    await send(report("production", "k8s@prod-eu", ago(20, now), [w("web", "2.3.4", 30), w("api", "3.0.2", 28)]));
    await send(report("production", "k8s@prod-us", ago(20, now), [w("web", "2.3.4", 30), w("api", "3.0.2", 28)]));
    await send(report("staging", "docker@staging", ago(12, now), [w("web", "2.3.5", 25), w("api", "3.0.2", 27)]));
    await send(report("dev", "k8s@dev", ago(1, now), [w("web", "2.4.1", 3), w("api", "3.1.0", 9), w("worker", "latest", 2, digest("worker-1.9.0"))], registryResults()));
    await send(report("staging", "docker@staging", ago(1, now), [w("web", "2.4.0", 6), w("api", "3.1.0", 8), w("worker", "latest", 5, digest("worker-1.8.2"))]));
    await send(report("production", "k8s@prod-eu", ago(1, now), [w("web", "2.3.5", 12), w("api", "3.0.2", 28), w("worker", "latest", 4, digest("worker-1.8.2"))]));
    await send(report("production", "k8s@prod-us", ago(1, now), [w("web", "2.3.5", 11), w("api", "3.1.0", 2), w("worker", "latest", 4, digest("worker-1.8.2"))]));
    for (const [name, team] of [["web", "storefront"], ["api", "platform"], ["worker", "platform"]] as const) {
      const r = await request.patch(`/api/v1/services/${name}`, { headers: auth, data: { team } });
      expect(r.status(), await r.text()).toBe(200);
    }
  }
  seeded = { member, agentKey };
  return seeded;
}

/** A report with no workloads from a lookup-only target: how an agent says a registry failed, or answers again. */
export async function reportRegistryResults(request: APIRequestContext, agentKey: string, results: object[]): Promise<void> {
  const body = report("dev", "lookup@dev", new Date().toISOString(), [], results);
  const r = await request.post("/api/v1/agent/report", { headers: { authorization: `Bearer ${agentKey}` }, data: body });
  expect(r.status(), await r.text()).toBe(202);
}
