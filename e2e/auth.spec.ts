import { expect, test } from "@playwright/test";
import { OWNER, shot, signIn } from "./support/owner";

test("a wrong password is refused with a clear message", async ({ page }) => {
  await page.goto("/signin");
  await page.getByLabel("E-mail").fill(OWNER.email);
  await page.getByLabel("Password").fill("wrong password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator("p[role=alert]")).toHaveText(/do not match/);
  await page.screenshot({ path: shot("signin-error-light"), fullPage: true });
});

test("an owner creates an API token, sees it once, uses it, and revokes it", async ({ page, request }) => {
  await signIn(page);
  await page.getByRole("link", { name: "Settings" }).click();
  await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: /API tokens/ }).click();
  await expect(page.getByRole("heading", { name: "API tokens" })).toBeVisible();

  await page.getByLabel("Name").fill("ci-reader");
  await page.getByLabel("Role").selectOption("member");
  await page.getByRole("button", { name: "Create token" }).click();
  const value = (await page.getByTestId("new-token").textContent())!.trim();
  expect(value).toMatch(/^dw_/);
  await page.screenshot({ path: shot("tokens-created-light"), fullPage: true });

  const ok = await request.get("/api/v1/environments", { headers: { authorization: `Bearer ${value}` } });
  expect(ok.status()).toBe(200);

  // The value is never shown again.
  await page.reload();
  await expect(page.getByText(value)).toHaveCount(0);
  await expect(page.getByRole("cell", { name: "ci-reader", exact: true })).toBeVisible();

  await page.getByRole("button", { name: "Revoke token ci-reader" }).click();
  await expect(page.getByText("revoked")).toBeVisible();
  const refused = await request.get("/api/v1/environments", { headers: { authorization: `Bearer ${value}` } });
  expect(refused.status()).toBe(401);
});

test("a signed-in browser can write through the API only from its own origin", async ({ page }) => {
  await signIn(page);
  const same = await page.evaluate(async () => {
    const r = await fetch("/api/v1/environments", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "browser-env", position: 5 }) });
    return r.status;
  });
  expect(same).toBe(201);
  const cross = await page.request.post("/api/v1/environments", {
    headers: { origin: "http://evil.example", "content-type": "application/json" },
    data: { name: "evil-env", position: 6 },
  });
  expect(cross.status()).toBe(403);
});
