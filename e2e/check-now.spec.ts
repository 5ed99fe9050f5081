// Check now on the service page shows what the check found without a reload:
// the new tags and the newest release from the loopback registry the server
// checks itself (playwright.config.ts), or the failure line, and the page's
// upstream state follows.
import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { registryPusher } from "../tests/support/registry";
import { REGISTRY_HOST } from "../playwright.config";
import { shot, signIn } from "./support/owner";
import { cliValue } from "./support/seed";

test.describe.configure({ mode: "serial" });

const registry = registryPusher(`http://${REGISTRY_HOST}`);
const suffix = Date.now().toString(36);
const repo = `e2e/checknow-${suffix}`;
const service = `checknow-${suffix}`;
const missing = `checknow-missing-${suffix}`;
// A workspace of its own, so the shared one keeps the services other specs count.
const CHECK_OWNER = { workspace: "checks", email: "owner@checks.example", password: `pw-${randomUUID()}` };

test.beforeAll(async ({ request }) => {
  await registry.pushImage(repo, "1.0.0");
  cliValue(["setup", "--workspace", CHECK_OWNER.workspace, "--email", CHECK_OWNER.email, "--password", CHECK_OWNER.password]);
  const agentKey = cliValue(["agent", "create", "--workspace", CHECK_OWNER.workspace, "--name", `e2e-checknow-${suffix}`]);
  const since = new Date(Date.now() - 3_600_000).toISOString();
  const w = (name: string, image: string) => ({ service: name, container: name, main: true, image, digest: null, platform_digest: null, platform: "linux/amd64", since });
  const r = await request.post("/api/v1/agent/report", {
    headers: { authorization: `Bearer ${agentKey}` },
    data: {
      environment: "dev", target: { name: `docker@checknow-${suffix}`, kind: "docker" }, observed_at: new Date().toISOString(),
      workloads: [w(service, `${REGISTRY_HOST}/${repo}:1.0.0`), w(missing, `${REGISTRY_HOST}/e2e/nothing-here-${suffix}:1.0.0`)],
    },
  });
  expect(r.status(), await r.text()).toBe(202);
});

async function checkNow(page: Page) {
  // A marker on the window: a reload would drop it.
  await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
  await page.getByRole("button", { name: "Check now" }).click();
  const result = page.getByTestId("check-result");
  await expect(result).not.toHaveAttribute("data-outcome", /^(idle|)$/, { timeout: 30_000 });
  expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
  return result;
}

test("Check now shows the new tags and the newest release in place", async ({ page }) => {
  await signIn(page, CHECK_OWNER);
  await page.goto(`/services/${service}`);
  await registry.pushImage(repo, "1.1.0");
  let result = await checkNow(page);
  await expect(result).toHaveAttribute("data-outcome", "checked");
  await expect(result).toContainText("1.1.0");
  await expect(page.getByTestId("check-state")).toHaveAttribute("data-state", "ok");
  // The page re-read with the action: the header's state note is gone (ok) and the card names the newest.
  await expect(page.getByTestId("upstream-state")).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Upstream" })).toContainText("1.1.0");

  await registry.pushImage(repo, "1.2.0");
  result = await checkNow(page);
  await expect(result).toContainText(`Checked ${REGISTRY_HOST}/${repo}: 1 new tag; new release 1.2.0`);
  await expect(page.getByTestId("check-new-tags")).toHaveText("1.2.0");
  await expect(page.getByRole("region", { name: "Upstream" })).toContainText("1.2.0");
  // The loopback registry is one the server queries itself (DRIFTWATCH_SERVER_REGISTRIES), not "a public registry".
  await page.reload();
  await expect(page.getByRole("region", { name: "Upstream" })).toContainText("The server (a registry it queries itself, without your agents)");
  await expect(page.getByRole("region", { name: "Upstream" })).not.toContainText("public registry");
  await page.screenshot({ path: shot("check-now-result"), fullPage: true });
});

test("Check now shows the failure line and the failed state in place", async ({ page }) => {
  await signIn(page, CHECK_OWNER);
  await page.goto(`/services/${missing}`);
  const result = await checkNow(page);
  await expect(result).toHaveAttribute("data-outcome", "failed");
  await expect(result).toContainText(`The check of ${REGISTRY_HOST}/e2e/nothing-here-${suffix} failed:`);
  await expect(page.getByTestId("check-state")).toHaveAttribute("data-state", "failed");
  await expect(page.getByTestId("upstream-state")).toHaveAttribute("data-state", "failed");
  await page.screenshot({ path: shot("check-now-failed"), fullPage: true });
});
