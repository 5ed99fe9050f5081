// axe-core on the main pages, in both themes: no serious or critical violations.
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { signIn } from "./support/owner";
import { seedWorkspace } from "./support/seed";

const PAGES = ["/", "/services/web", "/updates", "/promotions", "/delivery", "/report", "/settings/environments", "/settings/agents", "/settings/compose", "/settings/notifications", "/settings/users", "/settings/tokens", "/settings/sharing"];

test.beforeAll(async ({ request }) => {
  await seedWorkspace(request);
});

for (const colorScheme of ["light", "dark"] as const) {
  test(`no serious or critical accessibility violations (${colorScheme})`, async ({ page }) => {
    // Twelve pages, each analysed by axe: on a loaded machine that outlasts the default minute.
    test.setTimeout(240_000);
    await signIn(page);
    await page.emulateMedia({ colorScheme });
    const found: string[] = [];
    for (const path of PAGES) {
      await page.goto(path);
      await expect(page.locator("main h1")).toBeVisible();
      const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
      for (const v of result.violations) {
        if (v.impact === "serious" || v.impact === "critical") {
          found.push(`${path} ${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")}`);
        }
      }
    }
    expect(found, found.join("\n")).toEqual([]);
  });
}
