// The small things a new user meets in the first hour: sign-in goes back to
// the page asked for and keeps the e-mail, a favicon, a 404 inside the app's
// frame, page titles, Delivery's charts saying which span they cover, and a
// Compose-in-Git target showing its repository and files.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { OWNER, shot, signIn } from "./support/owner";
import { seedWorkspace } from "./support/seed";

test.beforeAll(async ({ request }) => {
  await seedWorkspace(request);
});

test("sign-in returns to the page asked for, and keeps the e-mail after a failed attempt", async ({ page }) => {
  await page.goto("/delivery?window=7d");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fdelivery%3Fwindow%3D7d$/);
  await page.getByLabel("E-mail").fill(OWNER.email);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator("p.alert")).toHaveText("That e-mail and password do not match.");
  await expect(page.getByLabel("E-mail")).toHaveValue(OWNER.email);
  await expect(page).not.toHaveURL(/owner/);
  await page.getByLabel("Password").fill(OWNER.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Delivery", level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/\/delivery\?window=7d$/);
});

test("sign-in never sends anyone to another site", async ({ page }) => {
  await page.goto("/signin?callbackUrl=https%3A%2F%2Fevil.example%2F");
  await page.getByLabel("E-mail").fill(OWNER.email);
  await page.getByLabel("Password").fill(OWNER.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Matrix" })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe("/");
});

test("a favicon, and every page titled '… · Driftwatch'", async ({ page, request }) => {
  const icon = await request.get("/icon.svg");
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toContain("image/svg+xml");
  await signIn(page);
  await expect(page.locator('head link[rel="icon"]')).toHaveAttribute("href", /\/icon\.svg/);
  const titles: Record<string, string> = {
    "/": "Matrix · Driftwatch", "/updates": "Updates · Driftwatch", "/promotions": "Promotions · Driftwatch", "/delivery": "Delivery · Driftwatch",
    "/report": "Monthly report · Driftwatch", "/services/web": "web · Driftwatch", "/settings/environments": "Environments · Driftwatch",
    "/settings/agents": "Agents and targets · Driftwatch", "/settings/compose": "Compose in Git · Driftwatch", "/settings/notifications": "Notifications · Driftwatch",
    "/settings/users": "Users · Driftwatch", "/settings/tokens": "API tokens · Driftwatch", "/no-such-page": "Not found · Driftwatch",
  };
  for (const [p, title] of Object.entries(titles)) {
    await page.goto(p);
    await expect(page, p).toHaveTitle(title);
  }
});

test("a page that does not exist answers 404 inside the app's frame", async ({ page }) => {
  await signIn(page);
  const res = await page.goto("/no-such-page");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main", exact: true }).getByRole("link", { name: "Updates" })).toBeVisible();
  await expect(page.getByText(OWNER.email)).toBeVisible();
  await page.screenshot({ path: shot("not-found"), fullPage: true });
  const missing = await page.goto("/services/no-such-service");
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
});

test("Delivery's charts say they keep their own span whatever the window", async ({ page }) => {
  await signIn(page);
  await page.goto("/delivery?window=7d");
  await expect(page.getByRole("heading", { name: "Versions arrived per week, last 12 weeks" })).toBeVisible();
  await expect(page.getByText("This chart always covers the last 12 weeks, whatever the window chosen above.")).toBeVisible();
  await expect(page.getByText("This chart always covers the last 30 days, whatever the window chosen above.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Lead times, last 7 days" })).toBeVisible();
});

test("a Compose-in-Git target shows its repository and files", async ({ page, request }) => {
  const { member } = await seedWorkspace(request);
  const repo = mkdtempSync(path.join(os.tmpdir(), "dw-e2e-compose-"));
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.test", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.test" } });
  mkdirSync(path.join(repo, "deploy"));
  writeFileSync(path.join(repo, "deploy/compose.yaml"), "services:\n  web:\n    image: registry.acme.test/shop/web:2.4.0\n");
  git("init", "--quiet", "--initial-branch=main");
  git("add", "-A");
  git("commit", "--quiet", "-m", "staging");
  const created = await request.post("/api/v1/targets", {
    headers: { authorization: `Bearer ${member}` },
    data: { environment: "staging", kind: "compose_git", repository_url: `file://${repo}`, branch: "main", paths: ["deploy/compose.yaml"] },
  });
  expect([201, 409]).toContain(created.status());
  await signIn(page);
  await page.goto("/settings/compose");
  const row = page.getByRole("row").filter({ hasText: `file://${repo}` });
  await expect(row).toBeVisible();
  await expect(row).toContainText("branch main");
  await expect(row).toContainText("deploy/compose.yaml");
});
