// Without JavaScript the matrix, its filters and pages, the service page's
// timeline and the Delivery charts all still work: everything is drawn on the server.
import { expect, test } from "@playwright/test";
import { signIn } from "./support/owner";
import { seedWorkspace } from "./support/seed";

test.beforeAll(async ({ request }) => {
  await seedWorkspace(request);
});

test("the matrix, its filters and the charts work with JavaScript disabled", async ({ browser }) => {
  // Sign in with scripts on, then carry the session into a context without them.
  const signedIn = await browser.newContext();
  const first = await signedIn.newPage();
  await signIn(first);
  const storageState = await signedIn.storageState();
  await signedIn.close();

  const context = await browser.newContext({ javaScriptEnabled: false, storageState });
  const page = await context.newPage();
  await page.goto("/");
  const rows = page.getByRole("table").first().locator("tbody tr");
  await expect(rows).toHaveCount(3);

  await page.getByLabel("Team", { exact: true }).selectOption("platform");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/[?&]team=platform/);
  await expect(rows).toHaveCount(2);
  await expect(page.getByLabel("Team", { exact: true })).toHaveValue("platform");

  await page.goto("/services/api");
  await expect(page.locator("figure.chart svg[role=img] > title").first()).toContainText("versions over the last 30 days");

  await page.goto("/delivery");
  await expect(page.locator("figure.chart svg[role=img]:visible")).toHaveCount(2);
  await page.screenshot({ path: "e2e/artifacts/delivery-nojs-light.png", fullPage: true });
  await context.close();
});
