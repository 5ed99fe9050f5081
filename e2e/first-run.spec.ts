import { expect, test } from "@playwright/test";
import { OWNER, shot } from "./support/owner";

test("a fresh install leads to the first-run page, which creates the owner and signs in", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/setup$/);
  await expect(page.getByRole("heading", { name: "Welcome to Driftwatch" })).toBeVisible();
  await page.screenshot({ path: shot("setup-light"), fullPage: true });
  await expect(page.getByText("letters, digits and . _ : @ + -, starting with a letter or digit; no spaces")).toBeVisible();

  await page.getByLabel("Workspace name").fill(OWNER.workspace);
  await page.getByLabel("Your e-mail").fill(OWNER.email);
  await page.getByLabel("Password").fill(OWNER.password);
  await page.getByRole("button", { name: "Create workspace" }).click();

  await expect(page.getByRole("heading", { name: "Matrix" })).toBeVisible();
  await expect(page.getByText(OWNER.email)).toBeVisible();

  // Once an owner exists, the first-run page is gone.
  await page.goto("/setup");
  await expect(page).not.toHaveURL(/\/setup$/);
});
