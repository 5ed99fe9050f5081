import { expect, test } from "@playwright/test";
import { shot, signIn } from "./support/owner";

test("an owner adds a person, changes their role, and removes them", async ({ page }) => {
  await signIn(page);
  await page.goto("/settings/users");
  await expect(page.getByRole("heading", { name: "Users" })).toBeVisible();

  const form = page.getByRole("form", { name: "Add a person" });
  await form.getByLabel("E-mail").fill("grace@acme.example");
  await form.getByLabel("Role").selectOption("viewer");
  await form.getByLabel("First password").fill("grace-first-password");
  await form.getByRole("button", { name: "Add" }).click();
  await expect(page.getByRole("status")).toHaveText(/grace@acme\.example was added as viewer/);
  await expect(page.getByRole("rowheader", { name: "grace@acme.example" })).toBeVisible();

  await page.getByLabel("Role of grace@acme.example", { exact: true }).selectOption("member");
  await page.getByRole("button", { name: "Change the role of grace@acme.example" }).click();
  await expect(page.getByRole("status")).toHaveText(/now member/);
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await page.screenshot({ path: shot(`users-${colorScheme}`), fullPage: true });
  }

  await page.getByRole("button", { name: "Remove grace@acme.example" }).click();
  await expect(page.getByRole("status")).toHaveText(/removed/);
  await expect(page.getByRole("rowheader", { name: "grace@acme.example" })).toHaveCount(0);

  // The last owner cannot be demoted: the page says why.
  await page.getByLabel("Role of owner@acme.example", { exact: true }).selectOption("admin");
  await page.getByRole("button", { name: "Change the role of owner@acme.example" }).click();
  await expect(page.locator("p[role=alert]")).toHaveText(/at least one owner/);
});
