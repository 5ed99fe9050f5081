// Phones: every page at 390 px wide, looked at (screenshots in e2e/artifacts),
// axe clean, nothing wider than the screen; the navigation folds into a menu
// button that works without script; the matrix shows each service as a card.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { shot, signIn } from "./support/owner";
import { seedWorkspace } from "./support/seed";

const PHONE = { width: 390, height: 844 };
const PAGES = [
  "/", "/services/web", "/updates", "/promotions", "/delivery", "/report",
  "/settings/environments", "/settings/agents", "/settings/compose", "/settings/notifications", "/settings/users", "/settings/tokens", "/settings/sharing",
];
const slug = (p: string) => (p === "/" ? "matrix" : p.slice(1).replaceAll("/", "-"));

test.use({ viewport: PHONE });

test.beforeAll(async ({ request }) => {
  await seedWorkspace(request);
});

/** The page is no wider than the screen: wide content scrolls inside its own box. */
async function expectNoSidewaysScroll(page: Page, where: string) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `${where} is ${width} px wide`).toBeLessThanOrEqual(PHONE.width);
}

test("every page at 390 px: no sideways scroll, a menu button, axe clean", async ({ page }) => {
  // Twelve pages, each analysed by axe: on a loaded machine that outlasts the default minute.
  test.setTimeout(240_000);
  await signIn(page);
  const found: string[] = [];
  for (const path of PAGES) {
    await page.goto(path);
    await expect(page.locator("main h1").first()).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main", exact: true })).toBeHidden();
    await expect(page.locator("summary", { hasText: "Menu" })).toBeVisible();
    await expectNoSidewaysScroll(page, path);
    await page.screenshot({ path: shot(`390-${slug(path)}`), fullPage: true });
    const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
    for (const v of result.violations) {
      if (v.impact === "serious" || v.impact === "critical") found.push(`${path} ${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")}`);
    }
  }
  expect(found, found.join("\n")).toEqual([]);
});

test("the menu button opens the navigation, with and without script", async ({ page, browser }) => {
  await signIn(page);
  await page.locator("summary", { hasText: "Menu" }).click();
  const menu = page.getByRole("navigation", { name: "Main menu" });
  await expect(menu.getByRole("link", { name: "Promotions" })).toBeVisible();
  await page.screenshot({ path: shot("390-menu-open") });
  await menu.getByRole("link", { name: "Promotions" }).click();
  await expect(page.getByRole("heading", { name: "Promotions", level: 1 })).toBeVisible();

  const storageState = await page.context().storageState();
  const noScript = await browser.newContext({ javaScriptEnabled: false, storageState, viewport: PHONE });
  const plain = await noScript.newPage();
  await plain.goto("/");
  await plain.locator("summary", { hasText: "Menu" }).click();
  await plain.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Delivery" }).click();
  await expect(plain.getByRole("heading", { name: "Delivery", level: 1 })).toBeVisible();
  await noScript.close();
});

test("the wide navigation stays as it was on a desktop window", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page);
  await expect(page.getByRole("navigation", { name: "Main", exact: true }).getByRole("link", { name: "Updates" })).toBeVisible();
  await expect(page.locator("summary", { hasText: "Menu" })).toBeHidden();
});

test("the matrix shows each service as a card with every environment on screen", async ({ page }) => {
  await signIn(page);
  const matrix = page.getByRole("region", { name: "Matrix" });
  const scrollable = await matrix.evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(scrollable, "the matrix scrolls sideways").toBeLessThanOrEqual(0);
  const environments = await page.locator("table.mx thead th.envh").evaluateAll((ths) => ths.map((th) => th.firstChild?.textContent ?? ""));
  // Other specs may add environments to the shared workspace (auth.spec.ts adds one): the pipeline's three are there, production too.
  expect(environments).toEqual(expect.arrayContaining(["dev", "staging", "production"]));
  const rows = matrix.locator("tbody tr");
  expect(await rows.count()).toBeGreaterThan(0);
  for (let i = 0; i < (await rows.count()); i++) {
    const cells = rows.nth(i).locator("td");
    // One cell per environment and the upstream column, each named by its column and inside the screen.
    const labels = await cells.evaluateAll((tds) => tds.map((td) => getComputedStyle(td, "::before").content));
    expect(labels.slice(0, environments.length)).toEqual(environments.map((e) => expect.stringContaining(`"${e}"`)));
    for (let c = 0; c < (await cells.count()); c++) {
      const box = (await cells.nth(c).boundingBox())!;
      expect(box.x, `row ${i} cell ${c} starts on screen`).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, `row ${i} cell ${c} ends on screen`).toBeLessThanOrEqual(PHONE.width);
    }
  }
  await page.screenshot({ path: shot("390-matrix-cards"), fullPage: true });
});

/** Every button and link in the page's main area can be brought into view inside the screen's width. */
async function expectActionsReachable(page: Page, where: string) {
  const actions = page.locator("main").locator("button:visible, a.button:visible, summary:visible");
  const n = await actions.count();
  expect(n, `${where} has actions`).toBeGreaterThan(0);
  for (let i = 0; i < n; i++) {
    const action = actions.nth(i);
    await action.scrollIntoViewIfNeeded();
    const box = await action.boundingBox();
    const label = (await action.getAttribute("aria-label")) ?? (await action.innerText());
    expect(box, `${where}: ${label}`).not.toBeNull();
    expect(box!.x, `${where}: ${label} starts on screen`).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width, `${where}: ${label} ends on screen`).toBeLessThanOrEqual(PHONE.width + 0.5);
  }
}

test("every action on Updates and on the service page is reachable at 390 px", async ({ page }) => {
  await signIn(page);
  await page.goto("/updates");
  await expectActionsReachable(page, "/updates");
  await page.goto("/services/web");
  await expectActionsReachable(page, "/services/web");
});
