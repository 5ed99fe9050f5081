// The web app as a person uses it: the matrix and its filters, a service's
// policy, badges, the updates list, delivery, the monthly report, and the
// settings pages. Seeded through agent reports and the API.
import { expect, test, type Page } from "@playwright/test";
import { shot, signIn } from "./support/owner";
import { cli, seedWorkspace } from "./support/seed";

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ request }) => {
  await seedWorkspace(request);
});

async function both(page: Page, name: string) {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await page.screenshot({ path: shot(`${name}-${colorScheme}`), fullPage: true });
  }
  await page.emulateMedia({ colorScheme: "light" });
}

const matrixRows = (page: Page) => page.getByRole("table").first().locator("tbody tr");

test("the matrix shows every service per environment, and its filters live in the URL", async ({ page }) => {
  await signIn(page);
  await expect(page.getByRole("columnheader", { name: /production/ })).toBeVisible();
  const headers = await page.getByRole("table").first().locator("thead th").allTextContents();
  expect(headers.slice(1, 4).map((h) => h.replace(/prod$/, "").trim().toLowerCase())).toEqual(["dev", "staging", "production"]);
  await expect(matrixRows(page)).toHaveCount(3);
  // A resolved moving tag shows its exact version.
  await expect(page.getByRole("row", { name: /worker/ }).getByRole("cell").first()).toContainText("latest = 1.9.0");
  await both(page, "matrix");

  await page.getByLabel("Team", { exact: true }).selectOption("platform");
  await expect(page).toHaveURL(/[?&]team=platform/);
  await expect(matrixRows(page)).toHaveCount(2);

  await page.getByLabel("Search", { exact: true }).fill("work");
  await expect(page).toHaveURL(/[?&]q=work/);
  await expect(matrixRows(page)).toHaveCount(1);
  await expect(matrixRows(page).first()).toContainText("worker");

  await page.getByLabel("Search", { exact: true }).fill("");
  await page.getByLabel("Drift", { exact: true }).selectOption("inconsistent");
  await expect(page).toHaveURL(/[?&]kind=inconsistent/);
  await expect(matrixRows(page)).toHaveCount(1);
  await expect(matrixRows(page).first()).toContainText("api");

  await page.getByLabel("Sort", { exact: true }).selectOption("-name");
  await expect(page).toHaveURL(/[?&]sort=-name/);

  // The URL alone restores the view.
  await page.reload();
  await expect(page.getByLabel("Team", { exact: true })).toHaveValue("platform");
  await expect(page.getByLabel("Drift", { exact: true })).toHaveValue("inconsistent");
  await expect(matrixRows(page)).toHaveCount(1);

  await page.getByRole("link", { name: "Clear" }).click();
  await expect(page).not.toHaveURL(/team=/);
  await expect(matrixRows(page)).toHaveCount(3);
});

test("a member edits a policy; an invalid tag filter is refused with a clear message", async ({ page, request }) => {
  await signIn(page);
  await page.getByRole("link", { name: "web", exact: true }).click();
  await expect(page.getByRole("heading", { name: "web", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Versions over the last 30 days" })).toBeVisible();
  await expect(page.locator("figure.chart svg[role=img] > title").first()).toContainText("versions over the last 30 days");
  await both(page, "service");

  const filter = page.getByLabel("Tag filter");
  await filter.fill("^(2\\.");
  await page.getByRole("button", { name: "Save policy" }).click();
  await expect(page.getByText("Some fields need fixing.")).toBeVisible();
  await expect(filter).toHaveAttribute("aria-invalid", "true");
  const describedBy = (await filter.getAttribute("aria-describedby"))!.split(" ");
  const error = page.locator(`[id="${describedBy.at(-1)}"]`);
  await expect(error).toContainText(/missing|parenthesis|invalid|closing/i);
  await expect(filter).toHaveValue("^(2\\.");
  await page.locator("section[aria-labelledby=policy-h]").screenshot({ path: shot("service-policy-error-light"), style: ".shell-header { position: static !important; }" });

  await filter.fill("^\\d+\\.\\d+\\.\\d+$");
  await page.getByLabel("Track").selectOption("minor");
  await page.getByRole("button", { name: "Save policy" }).click();
  await expect(page.getByText("Policy saved.")).toBeVisible();
  await page.reload();
  await expect(page.getByText("own policy", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Tag filter")).toHaveValue("^\\d+\\.\\d+\\.\\d+$");
  await expect(page.getByLabel("Track")).toHaveValue("minor");

  const { member } = await seedWorkspace(request);
  const api = await request.get("/api/v1/services/web", { headers: { authorization: `Bearer ${member}` } });
  expect(await api.json()).toMatchObject({ policy_source: "service", policy: { tag_filter: "^\\d+\\.\\d+\\.\\d+$", track: "minor" } });
});

test("a badge loads by its copied address, and stops loading after `driftwatch badges reset`", async ({ page, context, request }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signIn(page);
  await page.goto("/services/web");
  const copy = page.getByRole("row", { name: /web · production/ }).getByRole("button");
  await expect(copy).toHaveText("Copy markdown");
  await copy.click();
  await expect(copy).toHaveText("Markdown copied");
  const markdown = await page.evaluate(() => navigator.clipboard.readText());
  const match = /^\[!\[web · production\]\((.+)\)\]\((.+)\)$/.exec(markdown);
  expect(match, markdown).not.toBeNull();
  const [, badgeUrl, serviceUrl] = match!;
  expect(serviceUrl).toMatch(/\/services\/web$/);
  await expect(page.getByRole("heading", { name: "How a badge chooses its state" })).toBeVisible();

  const ok = await request.get(badgeUrl!);
  expect(ok.status()).toBe(200);
  expect(ok.headers()["content-type"]).toContain("image/svg+xml");
  expect(ok.headers()["cache-control"]).toBe("public, max-age=300");
  expect(await ok.text()).toContain("web · production");

  const reset = cli(["badges", "reset", "--workspace", "acme"]);
  expect(reset.code, reset.stderr).toBe(0);
  expect((await request.get(badgeUrl!)).status()).toBe(404);

  await page.reload();
  const fresh = await page.getByTestId("badge-url-production").textContent();
  expect(fresh).not.toBe(badgeUrl);
  expect((await request.get(fresh!)).status()).toBe(200);
});

test("updates: tiles filter, an update is put off into Acknowledged, and the checklist copies as markdown", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signIn(page);
  await page.getByRole("link", { name: "Updates" }).click();
  await expect(page.getByRole("heading", { name: "Updates", level: 1 })).toBeVisible();
  const todo = page.locator("table.updates:not(.acked) tbody tr");
  await expect(todo.first()).toBeVisible();
  await both(page, "updates");

  await page.getByRole("button", { name: "Copy as checklist" }).click();
  const checklist = await page.evaluate(() => navigator.clipboard.readText());
  // A line whose previous environment runs something newer names that promotion first; then why, and which targets.
  expect(checklist.split("\n").every((l) => /^- \[ \] \S+ \(\S+\): \S+ → \S+( \(from \S+\)(, then \S+)?)? · [A-Z][^·]+( · .+)?$/.test(l)), checklist).toBe(true);
  expect(checklist).toContain("- [ ] web (production): 2.3.5 →");

  const line = todo.filter({ has: page.getByRole("link", { name: "web", exact: true }) }).filter({ hasText: "production" });
  await line.getByRole("button", { name: "Put web in production off for a week" }).click();
  await expect(page.getByText("Put web in production off for a week.")).toBeVisible();
  const acked = page.getByTestId("acknowledged");
  await expect(acked.getByRole("row").filter({ hasText: "web" }).filter({ hasText: "production" })).toBeVisible();
  await expect(todo.filter({ has: page.getByRole("link", { name: "web", exact: true }) }).filter({ hasText: "production" })).toHaveCount(0);
  await both(page, "updates-acknowledged");

  const tile = page.getByRole("navigation", { name: "Filter by urgency" }).getByRole("link", { name: /Behind the previous environment/ });
  await tile.click();
  await expect(page).toHaveURL(/reason=behind_previous_env/);
  await expect(tile).toHaveAttribute("aria-current", "true");
});

test("delivery: two server-drawn charts with tables, in light and dark", async ({ page }) => {
  await signIn(page);
  await page.getByRole("link", { name: "Delivery" }).click();
  await expect(page.getByRole("heading", { name: "Delivery", level: 1 })).toBeVisible();
  const charts = page.locator("figure.chart svg[role=img]:visible");
  await expect(charts).toHaveCount(2);
  await expect(charts.nth(0).locator(":scope > title")).toHaveText("Versions arrived per week and environment, last 12 weeks");
  await expect(charts.nth(1).locator(":scope > title")).toHaveText("Open drift per day by kind, last 30 days");
  await expect(page.getByRole("table", { name: /Per week and environment/ })).toBeVisible();
  await both(page, "delivery");
});

test("promotions and the monthly report, which saves as a PDF", async ({ page }) => {
  await signIn(page);
  await page.getByRole("navigation", { name: "Main", exact: true }).getByRole("link", { name: "Promotions" }).click();
  await expect(page.getByRole("heading", { name: "Promotions", level: 1 })).toBeVisible();
  await expect(page.locator("li.promo").first()).toBeVisible();
  await both(page, "promotions");

  await page.getByRole("link", { name: "Report" }).click();
  await expect(page.getByRole("heading", { name: "Needs attention now" })).toBeVisible();
  await both(page, "report");
  await page.emulateMedia({ media: "print" });
  await page.screenshot({ path: shot("report-print"), fullPage: true });
  await page.emulateMedia({ media: "screen" });

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Save as PDF" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^driftwatch-acme-\d{4}-\d{2}\.pdf$/);
  const file = await download.path();
  const { readFile } = await import("node:fs/promises");
  const bytes = await readFile(file!);
  expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
  expect(bytes.length).toBeGreaterThan(5_000);
});

test("settings pages, in light and dark", async ({ page }) => {
  await signIn(page);
  await page.getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("heading", { name: "Environments", level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: /Environments/ })).toHaveAttribute("aria-current", "page");
  for (const [link, heading, name] of [
    ["Environments", "Environments", "settings-environments"],
    ["Agents and targets", "Agents and targets", "settings-agents"],
    ["Compose in Git", "Compose in Git", "settings-compose"],
    ["Notifications", "Notifications", "settings-notifications"],
    ["API tokens", "API tokens", "settings-tokens"],
  ] as const) {
    await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: new RegExp(link) }).click();
    await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeVisible();
    await both(page, name);
  }
});

test("environments: move one in the pipeline and mark production", async ({ page }) => {
  await signIn(page);
  await page.goto("/settings/environments");
  await page.getByRole("button", { name: "Move staging up" }).click();
  await expect(page.getByText("Moved staging up.")).toBeVisible();
  await expect(page.getByRole("list", { name: "Pipeline" }).getByRole("listitem").first()).toContainText("staging");
  await page.getByRole("button", { name: "Move staging down" }).click();
  await expect(page.getByRole("list", { name: "Pipeline" }).getByRole("listitem").first()).toContainText("dev");
});

test("sign-in page in light and dark", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto("/signin");
  await expect(page.getByRole("heading", { name: "Sign in to Driftwatch" })).toBeVisible();
  await both(page, "signin");
  await context.close();
});
