// The owner created by the first-run test, used by every later test.
import { expect, type Page } from "@playwright/test";

export const OWNER = { workspace: "acme", email: "owner@acme.example", password: "correct horse battery" };

export async function signIn(page: Page, who: { email: string; password: string } = OWNER) {
  await page.goto("/signin");
  await page.getByLabel("E-mail").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Matrix" })).toBeVisible();
}

export const shot = (name: string) => `e2e/artifacts/${name}.png`;
