// One fact, one age, one name; every line says what to do; empty is not
// healthy. At 1440 and 390 px, light and dark, axe clean, with screenshots:
// ages in words with the exact time on hover, one name per drift kind, the
// target that must move, the checklist's reasons, and pages with nothing
// reported that say so and how to connect an agent.
import { randomUUID } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { shot, signIn } from "./support/owner";
import { cliValue, seedWorkspace } from "./support/seed";

test.describe.configure({ mode: "serial" });

const EMPTY_OWNER = { workspace: "quiet-start", email: "owner@quiet-start.example", password: `pw-${randomUUID()}` };
const SIZES = [{ name: "1440", width: 1440, height: 900 }, { name: "390", width: 390, height: 844 }] as const;
const SCHEMES = ["light", "dark"] as const;
// Ages written with a bare unit letter (`2m` reads as months) must not appear.
const TERSE_AGE = /^\s*\d+[smhdw](\s+\d+[smhdw])?\s*$/;
const WORDED_AGE = /^\d+ (second|minute|hour|day)s?( \d+ (second|minute|hour|day)s?)?$/;

test.beforeAll(async ({ request }) => {
  await seedWorkspace(request);
  cliValue(["setup", "--workspace", EMPTY_OWNER.workspace, "--email", EMPTY_OWNER.email, "--password", EMPTY_OWNER.password]);
});

async function axeClean(page: Page, where: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${where} ${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")}`);
}

/** Every age in `scope` is a <time> in words with the exact UTC time on hover. */
async function expectWordedAges(page: Page, selector: string) {
  const ages = page.locator(selector);
  expect(await ages.count(), selector).toBeGreaterThan(0);
  for (const age of await ages.all()) {
    const text = (await age.textContent())?.trim() ?? "";
    expect(text).toMatch(WORDED_AGE);
    expect(text).not.toMatch(TERSE_AGE);
    await expect(age).toHaveAttribute("title", /^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
    await expect(age).toHaveAttribute("datetime", /^\d{4}-\d{2}-\d{2}T/);
  }
}

for (const size of SIZES) {
  for (const scheme of SCHEMES) {
    test(`Updates, a service page and the matrix tell one story (${size.name} px, ${scheme})`, async ({ page }) => {
      test.setTimeout(180_000);
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.emulateMedia({ colorScheme: scheme });
      await page.addInitScript(() => {
        // What Copy as checklist puts on the clipboard, without asking for clipboard permissions.
        const w = window as unknown as { __copied?: string };
        Object.defineProperty(navigator, "clipboard", { value: { writeText: async (t: string) => { w.__copied = t; } }, configurable: true });
      });
      await signIn(page);
      const found: string[] = [];

      await page.goto("/updates");
      await expect(page.getByRole("heading", { name: "Updates", level: 1 })).toBeVisible();
      // One name per kind: the tile and the pills say "Behind the previous environment", nowhere "Behind previous env".
      await expect(page.getByRole("navigation", { name: "Filter by urgency" }).getByRole("link", { name: /Behind the previous environment/ })).toBeVisible();
      await expect(page.locator("main")).not.toContainText("Behind previous env");
      // Open for: words, the exact time on hover.
      await expectWordedAges(page, "table.updates:not(.acked) tbody time.age");
      // api runs 3.0.2 on one production target and 3.1.0 on the other: the line names the one that moves.
      const api = page.locator("table.updates tbody tr").filter({ has: page.getByRole("link", { name: "api", exact: true }) }).filter({ hasText: "production" });
      await expect(api.locator(".move-targets")).toHaveText("move k8s@prod-eu (runs 3.0.2); k8s@prod-us runs 3.1.0 already");
      // What the page leaves out, said precisely.
      await expect(page.getByTestId("updates-scope")).toContainText("Not listed here");
      await page.getByRole("button", { name: "Copy as checklist" }).click();
      const copied = await page.evaluate(() => (window as unknown as { __copied?: string }).__copied ?? "");
      expect(copied).toContain("- [ ] api (production): 3.0.2 → 3.1.0 (from staging)");
      expect(copied).toContain("move k8s@prod-eu (runs 3.0.2); k8s@prod-us runs 3.1.0 already");
      expect(copied).toMatch(/Behind the previous environment|Minor release|Major release/);
      await page.screenshot({ path: shot(`ages-updates-${size.name}-${scheme}`), fullPage: true });
      found.push(...(await axeClean(page, "/updates")));

      await page.goto("/services/api");
      const drift = page.locator("div.table-scroll[aria-label='Open drift']");
      await expect(drift).toBeVisible();
      await expectWordedAges(page, "[aria-label='Open drift'] tbody time.age");
      // Plain words for a drift's state: notified or not yet, never "announced".
      await expect(drift).not.toContainText("announced");
      await expect(drift.getByText(/^(notified|new, not notified yet)$/).first()).toBeVisible();
      await page.screenshot({ path: shot(`ages-service-${size.name}-${scheme}`), fullPage: true });
      found.push(...(await axeClean(page, "/services/api")));

      // The matrix tooltip gives the same age, in words, with the exact time, and the kind by its one name.
      await page.goto("/");
      const marker = page.locator("button[aria-label='Behind the previous environment']").first();
      await expect(marker).toHaveCount(1);
      const tip = page.locator(`#${await marker.getAttribute("aria-describedby")}`);
      await expect(tip).toHaveText(/^Behind the previous environment: for \d+ (day|hour|minute)s?.*, since \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC; (notified|new, not notified yet)/);

      await page.goto("/delivery");
      // The counts link to the services they count.
      const arrived = page.getByTestId("delivery-services");
      await expect(arrived.getByRole("link", { name: "web" }).first()).toHaveAttribute("href", /^\/services\/web\?env=/);
      found.push(...(await axeClean(page, "/delivery")));

      // Pipeline chips show the positions the table edits.
      await page.goto("/settings/environments");
      const chips = await page.locator("ol.pipeline .step-no").allTextContents();
      const positions = await page.locator("input[name='position'][id^='pos-']").evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
      expect(chips).toEqual(positions);
      expect(found, found.join("\n")).toEqual([]);
    });

    test(`a workspace with nothing reported says so on every page (${size.name} px, ${scheme})`, async ({ page }) => {
      test.setTimeout(180_000);
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.emulateMedia({ colorScheme: scheme });
      await signIn(page, EMPTY_OWNER);
      const found: string[] = [];
      for (const path of ["/updates", "/promotions", "/delivery", "/report"]) {
        await page.goto(path);
        const empty = page.getByTestId("nothing-reported");
        await expect(empty.getByRole("heading", { name: "Nothing reported yet" })).toBeVisible();
        await expect(empty).toContainText("npx driftwatch agent create --workspace quiet-start");
        await expect(page.locator("main")).not.toContainText(/everything runs what|One environment only|every service runs what/);
        if (path === "/updates") await page.screenshot({ path: shot(`ages-empty-updates-${size.name}-${scheme}`), fullPage: true });
        found.push(...(await axeClean(page, path)));
      }
      expect(found, found.join("\n")).toEqual([]);
    });
  }
}
