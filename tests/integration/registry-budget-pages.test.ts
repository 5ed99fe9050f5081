// The pull budget as a user sees it on the running server (signed in to Docker
// Hub with the tests' own token): the Registries settings page lists the
// registries the server checks with Docker Hub's budget and refill, /metrics
// gives pulls and budget per host, and neither shows the token.
import { beforeAll, describe, expect, it } from "vitest";
import { api, makeWorkspace, type TestWorkspace } from "../support/api";
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
