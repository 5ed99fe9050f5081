// An admin turns the promotion gate on in Settings › Environments, and the
// service page then says what production accepts and what waits.
import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { shot, signIn } from "./support/owner";
import { cliValue } from "./support/seed";

test.describe.configure({ mode: "serial" });

// A workspace of its own, so the shared one keeps its environments as other specs expect.
const GATE_OWNER = { workspace: "gates", email: "owner@gates.example", password: `pw-${randomUUID()}` };
const H = 3_600_000;

test.beforeAll(async ({ request }) => {
  cliValue(["setup", "--workspace", GATE_OWNER.workspace, "--email", GATE_OWNER.email, "--password", GATE_OWNER.password]);
  const agentKey = cliValue(["agent", "create", "--workspace", GATE_OWNER.workspace, "--name", `e2e-gate-${Date.now().toString(36)}`]);
  const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
  const w = (image: string, since: string) => ({ service: "shop", container: "shop", main: true, image, digest: null, platform_digest: null, platform: "linux/amd64", since });
  const report = async (environment: string, observedAt: string, workloads: object[]) => {
    const r = await request.post("/api/v1/agent/report", {
      headers: { authorization: `Bearer ${agentKey}` },
      data: { environment, target: { name: `k8s@${environment}`, kind: "kubernetes" }, observed_at: observedAt, workloads },
    });
    expect(r.status(), await r.text()).toBe(202);
  };
  // staging first, so it comes first in the pipeline: 2.4.0 for three days, 3.0.0 for the last 3 h.
  await report("staging", ago(3 * H + 60_000), [w("ghcr.io/acme/shop:2.4.0", ago(75 * H))]);
  await report("staging", ago(5_000), [w("ghcr.io/acme/shop:3.0.0", ago(3 * H))]);
  await report("production", ago(5_000), [w("ghcr.io/acme/shop:2.3.0", ago(240 * H))]);
});

test("an admin sets production's gate; the service page says what waits", async ({ page }) => {
  await signIn(page, GATE_OWNER);
  await page.goto("/settings/environments");
  const form = page.getByRole("form", { name: "Gate of production" });
  await form.getByLabel("Mode").selectOption("enforce");
  await form.getByLabel("Soak").fill("24h");
  await form.getByRole("button", { name: "Save gate" }).click();
  await expect(page.getByText("The gate of production is enforce, soak 1d.")).toBeVisible();
  await expect(page.getByRole("form", { name: "Gate of production" }).getByLabel("Mode")).toHaveValue("enforce");
  await expect(page.getByRole("form", { name: "Gate of production" }).getByText("Kubernetes webhook")).toBeVisible();
  await page.screenshot({ path: shot("gate-settings"), fullPage: true });

  await page.goto("/services/shop");
  const line = page.getByTestId("gate-line");
  await expect(line).toHaveAttribute("data-environment", "production");
  await expect(line).toContainText(/production 3\.0\.0 waits: 20 hours 5\d minutes of soak left in staging/);
  await page.screenshot({ path: shot("gate-service-page"), fullPage: true });
});
