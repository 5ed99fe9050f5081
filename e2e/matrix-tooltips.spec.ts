// The matrix explains itself: each drift marker's tooltip shows on keyboard
// focus and on hover and describes the marker; a cell links to its service
// page at that environment and lists the versions its targets run.
import { expect, test } from "@playwright/test";
import { shot, signIn } from "./support/owner";
import { seedWorkspace } from "./support/seed";

test.beforeAll(async ({ request }) => {
  await seedWorkspace(request);
});

test("drift tooltips are reachable by keyboard and by pointer", async ({ page }) => {
  await signIn(page);
  await page.goto("/");
  const table = page.getByRole("table").first();

  // api's production targets run 3.0.2 and 3.1.0
  const apiProduction = table.getByRole("row", { name: /api/ }).getByRole("link", { name: "3.0.2 / 3.1.0" });
  await expect(apiProduction).toHaveAttribute("href", "/services/api?env=production");

  const markers = table.locator("button[aria-describedby]");
  expect(await markers.count()).toBeGreaterThan(0);

  // Keyboard: tab from the cell's link onto its first marker.
  const firstMarker = markers.first();
  const cellLink = firstMarker.locator("xpath=ancestor::td").getByRole("link");
  await cellLink.focus();
  await page.keyboard.press("Tab");
  await expect(firstMarker).toBeFocused();
  const tipId = await firstMarker.getAttribute("aria-describedby");
  const tip = page.locator(`[id="${tipId}"]`);
  await expect(tip).toHaveAttribute("role", "tooltip");
  await expect(tip).toBeVisible();
  await expect(tip).toContainText(/: for \d+ (second|minute|hour|day)s?.*, since \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC; (notified|new, not notified yet)|; the service page has its dates/);
  await page.screenshot({ path: shot("matrix-tooltip-focus") });

  // Focus moves on: the tooltip goes.
  await page.keyboard.press("Tab");
  await expect(tip).toBeHidden();

  // Pointer: hovering the last marker shows its own tooltip.
  const lastMarker = markers.last();
  await page.mouse.move(0, 0);
  await lastMarker.hover();
  const lastTip = page.locator(`[id="${await lastMarker.getAttribute("aria-describedby")}"]`);
  await expect(lastTip).toBeVisible();
  await page.screenshot({ path: shot("matrix-tooltip-hover") });
});
