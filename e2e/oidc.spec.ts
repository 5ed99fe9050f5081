// Single sign-on in the browser, against a real OpenID Connect provider on
// loopback (tests/support/oidc-provider.ts) and a Driftwatch server of its
// own started with the DRIFTWATCH_OIDC_* variables.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { startOidcProvider, type RunningOidcProvider } from "../tests/support/oidc-provider";
import { freePort, startDriftwatch, type RunningServer } from "../tests/support/server";
import { shot } from "./support/owner";

const ROOT = path.resolve(import.meta.dirname, "..");
const CLIENT_SECRET = "e2e-oidc-client-secret-4c1f9a";
const OWNER = { workspace: "corp", email: "owner@corp.example", password: "owner password e2e" };

let idp: RunningOidcProvider;
let dw: RunningServer;
let dataDir: string;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  idp = await startOidcProvider({
    people: {
      ada: { email: "ada@corp.example", email_verified: true, name: "Ada", groups: ["staff"] },
      grace: { email: "grace@corp.example", email_verified: true, name: "Grace", groups: ["staff", "ops"] },
    },
    client: { id: "driftwatch", secret: CLIENT_SECRET, redirectUri: `${base}/api/auth/callback/oidc` },
  });
  dataDir = mkdtempSync(path.join(os.tmpdir(), "driftwatch-e2e-oidc-"));
  const env = {
    ...process.env,
    DATABASE_URL: "",
    DRIFTWATCH_DATA_DIR: dataDir,
    DRIFTWATCH_BASE_URL: base,
    DRIFTWATCH_LOG_LEVEL: "warn",
    DRIFTWATCH_OIDC_ISSUER: idp.issuer,
    DRIFTWATCH_OIDC_CLIENT_ID: "driftwatch",
    DRIFTWATCH_OIDC_CLIENT_SECRET: CLIENT_SECRET,
    DRIFTWATCH_OIDC_NAME: "Corp ID",
    DRIFTWATCH_OIDC_WORKSPACE: OWNER.workspace,
    DRIFTWATCH_OIDC_GROUP_ROLES: "ops=member,platform=admin",
  };
  const setup = spawnSync(process.execPath, [path.join(ROOT, "bin/driftwatch.mjs"), "setup", "--workspace", OWNER.workspace, "--email", OWNER.email, "--password", OWNER.password], { cwd: ROOT, env, encoding: "utf8", timeout: 120_000 });
  expect(setup.status, setup.stderr).toBe(0);
  dw = await startDriftwatch({ env, port, args: ["--eol=false"], timeoutMs: 180_000 });
});

test.afterAll(async () => {
  if (dw) {
    dw.child.kill("SIGTERM");
    await new Promise((resolve) => dw.child.once("exit", resolve));
    // The server's output is kept for the secrets check; the client secret must not be in it.
    expect(dw.output()).not.toContain(CLIENT_SECRET);
  }
  await idp?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test.afterEach(() => idp.tamper("none"));

/** From Driftwatch's sign-in page through the provider's login form, back to Driftwatch. */
async function signInThroughProvider(page: Page, login: string) {
  await page.goto(`${dw.baseUrl}/signin`);
  await page.getByRole("link", { name: "Sign in with Corp ID" }).click();
  await expect(page).toHaveURL(new RegExp(`^${idp.issuer}/`));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any password at the provider");
  await page.getByRole("button", { name: "Sign-in" }).click();
}

/** The role shown beside a person on the Users page, to someone who cannot change it. */
function roleOf(page: Page, email: string) {
  return page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: email }) }).locator(".pill");
}

test("the sign-in page offers single sign-on beside the owner's password", async ({ page }) => {
  await page.goto(`${dw.baseUrl}/signin`);
  await expect(page.getByRole("link", { name: "Sign in with Corp ID" })).toBeVisible();
  await page.getByLabel("E-mail").fill(OWNER.email);
  await page.getByLabel("Password").fill(OWNER.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Matrix" })).toBeVisible();
  await expect(page.locator(".shell-email")).toHaveText(OWNER.email);
});

test("a person signing in for the first time joins the workspace as a viewer, and a viewer cannot change anything", async ({ page }) => {
  await signInThroughProvider(page, "ada");
  await expect(page.getByRole("heading", { name: "Matrix" })).toBeVisible();
  await expect(page.locator(".shell-email")).toHaveText("ada@corp.example");
  await page.screenshot({ path: shot("oidc-first-sign-in"), fullPage: true });

  await page.goto(`${dw.baseUrl}/settings/environments`);
  await expect(page.getByRole("heading", { name: "Environments" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Add environment" })).toHaveCount(0);
  const refused = await page.request.post(`${dw.baseUrl}/api/v1/environments`, { headers: { origin: dw.baseUrl }, data: { name: "by-ada", position: 10 } });
  expect(refused.status()).toBe(403);
});

test("a person in a group mapped to member joins as a member and may add an environment", async ({ page }) => {
  await signInThroughProvider(page, "grace");
  await expect(page.getByRole("heading", { name: "Matrix" })).toBeVisible();
  // Members see the people of the workspace: grace as member, ada (who joined before) as viewer.
  await page.goto(`${dw.baseUrl}/settings/users`);
  await expect(roleOf(page, "grace@corp.example")).toHaveText("member");
  await expect(roleOf(page, "ada@corp.example")).toHaveText("viewer");
  await page.screenshot({ path: shot("oidc-users"), fullPage: true });

  await page.goto(`${dw.baseUrl}/settings/environments`);
  await page.getByRole("textbox", { name: "Name" }).fill("qa");
  await page.getByRole("button", { name: "Add environment" }).click();
  await expect(page.getByRole("list", { name: "Pipeline" })).toContainText("qa");
});

for (const [mode, message] of [
  ["audience", "Single sign-on refused: the identity provider's answer was meant for another application."],
  ["issuer", "Single sign-on refused: the identity provider's answer came from another issuer than the one this server trusts."],
  ["signature", "Single sign-on refused: the identity provider's answer is not signed with its published keys."],
] as const) {
  test(`an ID token with the wrong ${mode} is refused with a clear message`, async ({ page }) => {
    idp.tamper(mode);
    await signInThroughProvider(page, "ada");
    await expect(page.locator("p[role=alert]")).toHaveText(message);
    await expect(page).toHaveURL(new RegExp(`^${dw.baseUrl}/signin`));
    if (mode === "audience") await page.screenshot({ path: shot("oidc-refused"), fullPage: true });
    // No session came of it.
    await page.goto(`${dw.baseUrl}/`);
    await expect(page).toHaveURL(new RegExp(`^${dw.baseUrl}/signin`));
  });
}

test("signing out ends the session", async ({ page }) => {
  await signInThroughProvider(page, "ada");
  await expect(page.getByRole("heading", { name: "Matrix" })).toBeVisible();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("link", { name: "Sign in with Corp ID" })).toBeVisible();
  await page.goto(`${dw.baseUrl}/settings/users`);
  await expect(page).toHaveURL(new RegExp(`^${dw.baseUrl}/signin`));
  const session = await page.request.get(`${dw.baseUrl}/api/auth/session`);
  expect(await session.json()).toBeNull();
});
