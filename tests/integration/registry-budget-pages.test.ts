// The pull budget as a user sees it on the running server (signed in to Docker
// Hub with the tests' own token): the Registries settings page lists the
// registries the server checks with Docker Hub's budget and refill, /metrics
// gives pulls and budget per host, and neither shows the token.
import { beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { api, makeWorkspace, testDb, type TestWorkspace } from "../support/api";
import { sessionCookie, sessionRequest } from "../support/session";

let ws: TestWorkspace;
let cookie: string;

beforeAll(async () => {
  ws = await makeWorkspace("budget-pages");
  cookie = await sessionCookie(ws.owner.email, ws.owner.password);
});

describe("pull budget pages", () => {
  it("lists the registries the server checks, with Docker Hub's budget and when it refills", async () => {
    const page = await sessionRequest(cookie, "GET", "/settings/registries");
    expect(page.status).toBe(200);
    const text = page.text.replace(/<!-- -->/g, "");
    expect(text).toContain("<h1>Registries</h1>");
    const row = /<tr><th scope="row" class="mono">docker\.io<span class="muted"> \(Docker Hub\)<\/span><\/th>(.*?)<\/tr>/.exec(text)?.[1];
    expect(row).toMatch(/^<td>yes<\/td><td>100 pulls per 60 min<\/td><td>\d+ \(\d+ spent by Driftwatch\)<\/td><td class="nowrap">(now|about [^<]+)<\/td><td class="nowrap">(full|about [^<]+)<\/td>$/);
    expect(text).toMatch(/ghcr\.io<\/th><td><span class="muted">no<\/span><\/td><td><span class="muted">not rationed<\/span>/);
    expect(text).not.toContain("dckr_pat_");
  });

  it("says on the service page that the source label waits for Docker Hub's quota, and until about when", async () => {
    const repository = `docker.io/budget-${randomUUID().slice(0, 8)}/app`;
    const report = await api(ws.agentKey).post("/api/v1/agent/report", {
      environment: "production", target: { name: "docker@budget", kind: "docker" }, observed_at: new Date().toISOString(),
      workloads: [{ service: "quota", container: "app", main: true, image: `${repository}:1.0.0`, digest: null, platform_digest: null, platform: "linux/amd64", since: "2026-11-01T00:00:00Z" }],
    });
    expect(report.status).toBe(202);
    // What the label reader leaves when Docker Hub has no pull to spare (a real read needs Docker Hub itself).
    const due = new Date(Date.now() + 40 * 60_000);
    await testDb().upstreamRepository.updateMany({ where: { key: repository }, data: { labelNeeded: true, labelWaitingQuota: true, labelDueAt: due } });
    const page = await sessionRequest(cookie, "GET", "/services/quota");
    expect(page.status).toBe(200);
    const text = page.text.replace(/<!-- -->/g, "");
    const line = /source label: waiting for Docker Hub quota \(next read about ([^)]+)\)/.exec(text);
    expect(line?.[1]).toMatch(/^(\d{4}-\d{2}-\d{2} )?\d{2}:\d{2} UTC$/);
    const shown = line![1]!.replace(/^.* (\d{2}:\d{2}) UTC$/, "$1").replace(/ UTC$/, "");
    const rounded = new Date(Math.ceil(due.getTime() / 300_000) * 300_000);
    expect(shown).toBe(`${String(rounded.getUTCHours()).padStart(2, "0")}:${String(rounded.getUTCMinutes()).padStart(2, "0")}`);
  });

  it("gives pulls spent and the budget left per rationed host in /metrics", async () => {
    const res = await api(ws.viewer).get("/metrics");
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/^driftwatch_registry_pull_limit\{host="docker\.io"\} 100$/m);
    expect(res.text).toMatch(/^driftwatch_registry_pull_budget_remaining\{host="docker\.io"\} \d+$/m);
    expect(res.text).toMatch(/^driftwatch_registry_pulls_total\{host="docker\.io"\} \d+$/m);
    expect(res.text).toMatch(/^driftwatch_registry_pulls_window\{host="docker\.io"\} \d+$/m);
    expect(res.text).not.toMatch(/driftwatch_registry_pull_limit\{host="ghcr\.io"\}/);
    expect(res.text).not.toContain("dckr_pat_");
  });
});
