// Helm releases in the matrix, beside images: a workspace of its own (so the shared one keeps its
// three services) whose Kubernetes agent reports chart versions and image tags per environment.
import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { shot } from "./support/owner";
import { cliValue } from "./support/seed";

const HELM_OWNER = { workspace: "charts", email: "owner@charts.example", password: `pw-${randomUUID()}` };
const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();

type Row = { service: string; image?: string; chart?: { name: string; version: string; app?: string } ; since: number };

function workload(r: Row) {
  const base = { service: r.service, main: true, platform_digest: null, since: ago(r.since) };
  if (!r.chart) return { ...base, container: r.service, image: r.image!, digest: null, platform: "linux/amd64" };
  return {
    ...base, container: "chart", image: `${r.chart.name}:${r.chart.version}`, digest: null, platform: null, kind: "helm_release",
    chart: { name: r.chart.name, version: r.chart.version, app_version: r.chart.app ?? null, namespace: "platform", release: r.service, revision: 3 },
  };
}

test("chart rows sit beside image rows in the matrix", async ({ page, request }) => {
  cliValue(["setup", "--workspace", HELM_OWNER.workspace, "--email", HELM_OWNER.email, "--password", HELM_OWNER.password]);
  const member = cliValue(["token", "create", "--workspace", HELM_OWNER.workspace, "--role", "member", "--name", "e2e-helm"]);
  const agentKey = cliValue(["agent", "create", "--workspace", HELM_OWNER.workspace, "--name", "e2e-helm"]);
  const auth = { authorization: `Bearer ${member}` };
  for (const env of [{ name: "staging", position: 10 }, { name: "production", position: 20, production: true }]) {
    expect((await request.post("/api/v1/environments", { headers: auth, data: env })).status()).toBe(201);
  }
  const send = async (environment: string, rows: Row[]) => {
    const data = { environment, target: { name: `kubernetes@${environment}`, kind: "kubernetes" }, observed_at: new Date().toISOString(), workloads: rows.map(workload) };
    const r = await request.post("/api/v1/agent/report", { headers: { authorization: `Bearer ${agentKey}` }, data });
    expect(r.status(), await r.text()).toBe(202);
  };
  await send("staging", [
    { service: "storefront", image: "registry.acme.test/shop/storefront:2.5.0", since: 2 },
    { service: "ingress-nginx", chart: { name: "ingress-nginx", version: "4.11.3", app: "1.11.3" }, since: 3 },
    { service: "ingress-nginx", image: "registry.acme.test/ingress-nginx/controller:v1.11.3", since: 3 },
    { service: "cert-manager", chart: { name: "cert-manager", version: "v1.16.2", app: "v1.16.2" }, since: 4 },
    { service: "shop-platform", chart: { name: "shop-platform", version: "0.9.0" }, since: 1 },
  ]);
  await send("production", [
    { service: "storefront", image: "registry.acme.test/shop/storefront:2.4.1", since: 9 },
    { service: "ingress-nginx", chart: { name: "ingress-nginx", version: "4.10.1", app: "1.10.1" }, since: 40 },
    { service: "ingress-nginx", image: "registry.acme.test/ingress-nginx/controller:v1.10.1", since: 40 },
    { service: "cert-manager", chart: { name: "cert-manager", version: "v1.16.2", app: "v1.16.2" }, since: 4 },
    { service: "shop-platform", chart: { name: "shop-platform", version: "0.8.2" }, since: 12 },
  ]);

  await page.goto("/signin");
  await page.getByLabel("E-mail").fill(HELM_OWNER.email);
  await page.getByLabel("Password").fill(HELM_OWNER.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Matrix" })).toBeVisible();

  const table = page.getByRole("table").first();
  const row = (name: string) => table.getByRole("row").filter({ has: page.getByRole("rowheader", { name: new RegExp(`^${name}\\b`) }) });
  // A release is a service of its own, named chart:<release>, beside the image service of its pods.
  await expect(row("chart:ingress-nginx")).toContainText("4.11.3");
  await expect(row("chart:ingress-nginx")).toContainText("4.10.1");
  await expect(row("chart:ingress-nginx").getByText("chart", { exact: true })).toBeVisible();
  await expect(row("ingress-nginx")).toContainText("1.11.3");
  await expect(row("ingress-nginx").getByText("chart", { exact: true })).toHaveCount(0);
  // A chart nothing names a repository for says so, rather than "up to date".
  await expect(row("chart:shop-platform")).toContainText("no chart repository known");
  await expect(row("storefront")).toContainText("2.4.1");
  await expect(row("storefront").getByText("chart", { exact: true })).toHaveCount(0);
  // The chart and image rows drift between environments alike.
  for (const name of ["chart:ingress-nginx", "storefront"]) await expect(row(name).locator("button[aria-describedby]").first()).toBeVisible();
  await page.screenshot({ path: shot("matrix-helm-charts"), fullPage: true });
});
