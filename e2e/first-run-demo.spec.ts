// A fresh install offers a demo workspace of its own on the setup page: one
// click fills it in the running server and signs in to it; setup stays open
// for the real first workspace, and a second click adds nothing.
import { expect, test } from "@playwright/test";
import { shot } from "./support/owner";

test("Try the demo on the setup page fills a demo workspace and signs in; setup stays open", async ({ page }) => {
  test.setTimeout(240_000);
  await page.goto("/setup");
  await expect(page.getByRole("heading", { name: "Welcome to Driftwatch" })).toBeVisible();
  await page.getByRole("button", { name: "Try the demo" }).click();
  await expect(page.getByRole("heading", { name: "Matrix" })).toBeVisible({ timeout: 180_000 });
  await expect(page.getByText("demo@example.com")).toBeVisible();
  await expect(page.getByRole("link", { name: "checkout-api", exact: true })).toBeVisible();
  await page.screenshot({ path: shot("demo-from-setup"), fullPage: true });

  // Signed out, an instance with only the demo still leads to setup, where the demo is offered again.
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin/);
  await page.goto("/");
  await expect(page).toHaveURL(/\/setup$/);
  await page.getByRole("button", { name: "Try the demo" }).click();
  await expect(page.getByRole("heading", { name: "Matrix" })).toBeVisible({ timeout: 60_000 });
  const services = page.getByRole("link", { name: "checkout-api", exact: true });
  await expect(services).toHaveCount(1);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin/);
});
