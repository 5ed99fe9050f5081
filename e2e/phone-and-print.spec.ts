// A phone shows production and the report prints: at 1440 and 390 px, in
// light and dark, the matrix, Updates, a service page, the report, Delivery
// and Settings › Tokens fit the screen, break no word inside itself and are
// axe clean (screenshots in e2e/artifacts). At 390 px a drift tooltip stays
// on the screen, an Updates line shows Why, Open for and Put off, and chart
// text is drawn at 10 px or more. The report's Save as PDF shows progress.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { shot, signIn } from "./support/owner";
import { seedWorkspace } from "./support/seed";

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const PAGES = ["/", "/updates", "/services/web", "/report", "/delivery", "/settings/tokens"];
const slug = (p: string) => (p === "/" ? "matrix" : p.slice(1).replaceAll("/", "-"));

test.beforeAll(async ({ request }) => {
  await seedWorkspace(request);
});

/**
 * Words of the page's main area drawn over more than one line ("produ / ctio / n").
 * Breaking between words, and after a hyphen or slash, is fine.
 */
function brokenWords(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const broken: string[] = [];
    const walker = document.createTreeWalker(document.querySelector("main")!, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      // One-time secrets are meant to wrap anywhere; hidden text and tooltips are not drawn.
      if (!el || el.closest(".sr, .secret, [role=tooltip], svg") || !el.checkVisibility()) continue;
      const text = node.textContent ?? "";
      for (const m of text.matchAll(/[^\s\-–—/·,]+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1) broken.push(`${m[0]} (in <${el.tagName.toLowerCase()} class="${el.className}">)`);
      }
    }
    return broken;
  });
}

async function axeSerious(page: Page, path: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${path} ${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")}`);
}

for (const viewport of [DESKTOP, PHONE]) {
  for (const colorScheme of ["light", "dark"] as const) {
    test(`${viewport.width} px, ${colorScheme}: no sideways scroll, no word broken, axe clean`, async ({ page }) => {
      // Six pages, each analysed by axe: on a loaded machine that outlasts the default minute.
      test.setTimeout(240_000);
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme });
      await signIn(page);
      const found: string[] = [];
      for (const path of PAGES) {
        await page.goto(path);
        await expect(page.locator("main h1").first()).toBeVisible();
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(width, `${path} is ${width} px wide`).toBeLessThanOrEqual(viewport.width);
        expect(await brokenWords(page), `${path}: words broken across lines`).toEqual([]);
        await page.screenshot({ path: shot(`${viewport.width}-${colorScheme}-${slug(path)}`), fullPage: true });
        found.push(...(await axeSerious(page, path)));
      }
      expect(found, found.join("\n")).toEqual([]);
    });
  }
}

test("390 px: every drift tooltip on the matrix stays inside the screen", async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signIn(page);
  const markers = page.locator("table.mx button[aria-describedby]");
  const n = await markers.count();
  expect(n, "the seeded matrix has drift markers").toBeGreaterThan(0);
  let rightColumn = 0;
  for (let i = 0; i < n; i++) {
    const marker = markers.nth(i);
    await marker.focus();
    const tip = page.locator(`[id="${await marker.getAttribute("aria-describedby")}"]`);
    await expect(tip).toBeVisible();
    const [m, t] = [(await marker.boundingBox())!, (await tip.boundingBox())!];
    if (m.x > PHONE.width / 2) rightColumn++;
    expect(t.x, `tooltip ${i} starts on screen`).toBeGreaterThanOrEqual(0);
    expect(t.x + t.width, `tooltip ${i} ends on screen`).toBeLessThanOrEqual(PHONE.width);
    expect(t.y, `tooltip ${i} opens below its marker`).toBeGreaterThanOrEqual(m.y + m.height - 1);
    if (i === 0) await page.screenshot({ path: shot("390-matrix-tooltip") });
  }
  // The case that used to be cut off: a marker in a card's right-hand column.
  expect(rightColumn, "markers in the right-hand column were checked").toBeGreaterThan(0);
});

test("390 px: each Updates line shows its move, Why, Open for and Put off on screen", async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signIn(page);
  await page.goto("/updates");
  const lines = page.locator("table.updates:not(.grouped):not(.acked) tbody tr");
  expect(await lines.count()).toBeGreaterThan(0);
  for (let i = 0; i < (await lines.count()); i++) {
    const cells = lines.nth(i).locator(":scope > *");
    const labels = await cells.evaluateAll((els) => els.map((el) => getComputedStyle(el, "::before").content));
    expect(labels.slice(3)).toEqual(['"Why"', '"Open for"', '"Put off"'].map((l) => expect.stringContaining(l)));
    for (let c = 0; c < (await cells.count()); c++) {
      await expect(cells.nth(c)).toBeVisible();
      const box = (await cells.nth(c).boundingBox())!;
      expect(box.x + box.width, `line ${i} cell ${c} ends on screen`).toBeLessThanOrEqual(PHONE.width);
    }
  }
  const putOff = lines.first().getByRole("button", { name: /Put .* off for a week/ });
  await putOff.scrollIntoViewIfNeeded();
  await expect(putOff).toBeInViewport({ ratio: 1 });
  await page.screenshot({ path: shot("390-updates-lines") });
});

test("390 px: the role select on Settings › Tokens stays inside its card", async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signIn(page);
  await page.goto("/settings/tokens");
  const select = page.getByRole("combobox", { name: "Role" });
  const card = page.locator(".card").filter({ has: select });
  const [s, c] = [(await select.boundingBox())!, (await card.boundingBox())!];
  expect(s.x).toBeGreaterThanOrEqual(c.x);
  expect(s.x + s.width, "the select ends inside its card").toBeLessThanOrEqual(c.x + c.width);
  await card.screenshot({ path: shot("390-tokens-form") });
});

for (const viewport of [DESKTOP, PHONE]) {
  test(`${viewport.width} px: chart text is drawn at 10 px or more`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await signIn(page);
    for (const path of ["/delivery", "/services/web"]) {
      await page.goto(path);
      const sizes = await page.locator("figure.chart svg[role=img]:visible").evaluateAll((svgs) =>
        svgs.map((svg) => {
          const scale = svg.getBoundingClientRect().width / (svg as SVGSVGElement).viewBox.baseVal.width;
          const texts = [...svg.querySelectorAll("text")].map((t) => Number.parseFloat(getComputedStyle(t).fontSize) * scale);
          return { drawnAt: (svg as SVGSVGElement).viewBox.baseVal.width, smallest: Math.min(...texts) };
        }));
      expect(sizes.length, `${path} shows its charts`).toBeGreaterThan(0);
      for (const s of sizes) expect(s.smallest, `${path}: chart drawn ${s.drawnAt} px wide`).toBeGreaterThanOrEqual(10);
    }
  });
}

test("Save as PDF says the PDF is being made, then saves it", async ({ page }) => {
  await signIn(page);
  await page.goto("/report");
  const save = page.getByRole("link", { name: "Save as PDF", exact: true });
  const downloaded = page.waitForEvent("download");
  await save.click();
  // The server's Chromium takes a second or more: the link says so meanwhile.
  await expect(page.locator(".pdf-save a.button")).toHaveText("Making the PDF…");
  await expect(page.locator(".pdf-save a.button")).toHaveAttribute("aria-disabled", "true");
  await expect(page.locator(".pdf-save [role=status]")).toHaveText(/^Making the (A4|Letter) PDF…$/);
  await page.screenshot({ path: shot("report-pdf-in-progress") });
  const download = await downloaded;
  expect(download.suggestedFilename()).toMatch(/^driftwatch-acme-\d{4}-\d{2}\.pdf$/);
  await expect(page.locator(".pdf-save [role=status]")).toHaveText(/^Saved driftwatch-acme-\d{4}-\d{2}\.pdf \((A4|Letter)\)\.$/);
  await expect(save).toHaveText("Save as PDF");
});
