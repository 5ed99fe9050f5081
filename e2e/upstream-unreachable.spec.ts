// One registry that cannot be reached: the matrix and Updates name it in a
// banner with the repositories it affects, the service page says how old what
// it knows is, and nothing reads as up to date. A "Skip this version" from
// Updates moves the line under Acknowledged.
import { expect, test } from "@playwright/test";
import { OWNER, shot, signIn } from "./support/owner";
import { cliValue, registryResults, reportRegistryResults, seedWorkspace } from "./support/seed";

test.describe.configure({ mode: "serial" });

let agentKey = "";

test.beforeAll(async ({ request }) => {
  await seedWorkspace(request);
  agentKey = cliValue(["agent", "create", "--workspace", OWNER.workspace, "--name", `e2e-lookup-${Date.now()}`]);
  const results = registryResults().map((r) => (r.repository.endsWith("/web") ? { ...r, tags: [], digests: [], resolved: [], error: "registry.acme.test: connection refused" } : r));
  await reportRegistryResults(request, agentKey, results);
});

test.afterAll(async ({ request }) => {
  // Answers again: the other specs see the seeded, reachable registry.
  await reportRegistryResults(request, agentKey, registryResults());
});

test("the matrix and Updates name the unreachable registry, and nothing reads as up to date", async ({ page }) => {
  await signIn(page);
  const banner = page.getByTestId("registry-banner");
  await expect(banner).toContainText("registry.acme.test");
  await expect(banner).toContainText("1 repository");
  await expect(banner).toContainText("connection refused");
  await page.screenshot({ path: shot("upstream-unreachable-matrix"), fullPage: true });

  await page.getByRole("link", { name: "Updates" }).click();
  await expect(page.getByTestId("registry-banner")).toContainText("registry.acme.test");
  await expect(page.locator("[data-upstream-state=failed]").first()).toBeVisible();
  await page.screenshot({ path: shot("upstream-unreachable-updates"), fullPage: true });

  await page.goto("/services/web");
  await expect(page.getByTestId("upstream-state")).toContainText("check failed: registry.acme.test: connection refused");
  await expect(page.getByTestId("upstream-state")).toContainText("last good check");
  await expect(page.getByText("Nothing newer than")).toHaveCount(0);
  await expect(page.getByText("Up to date", { exact: true })).toHaveCount(0);
});

test("Skip this version moves the line under Acknowledged", async ({ page, request }) => {
  await reportRegistryResults(request, agentKey, registryResults());
  await signIn(page);
  await page.goto("/updates");
  const todo = page.locator("table.updates:not(.acked) tbody tr");
  const skip = todo.getByRole("button", { name: /^Skip \S+ for \S+ in \S+$/ }).first();
  const [, version, service, environment] = /^Skip (\S+) for (\S+) in (\S+)$/.exec((await skip.getAttribute("aria-label")) ?? "")!;
  // The environment's own cell: "promote from dev" in another line's move must not match.
  const envCell = page.getByRole("cell", { name: new RegExp(`^${environment}\\s*(prod)?$`) });
  const lineOf = (rows: typeof todo) => rows.filter({ has: page.getByRole("link", { name: service, exact: true }) }).filter({ has: envCell });
  await expect(lineOf(todo)).toHaveCount(1);
  await skip.click();
  await expect(page.getByText(`Skipped ${version} for ${service} in ${environment}.`)).toBeVisible();
  await expect(lineOf(todo)).toHaveCount(0);
  const acked = lineOf(page.getByTestId("acknowledged").getByRole("row"));
  await expect(acked).toContainText(`skipped ${version}`);
  await page.screenshot({ path: shot("updates-skipped"), fullPage: true });
  await acked.getByRole("button", { name: /Undo/ }).click();
  await expect(page.getByText(`${service} is back on the list.`)).toBeVisible();
});
