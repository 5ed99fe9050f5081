// The Content-Security-Policy in the browser: every page carries a fresh
// nonce, Next's scripts run under it (the page hydrates and its controls
// work), and the browser reports no violation anywhere.
import { expect, test, type Page } from "@playwright/test";
import { signIn } from "./support/owner";
import { seedWorkspace } from "./support/seed";

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ request }) => {
  await seedWorkspace(request);
});

const PAGES = [
  "/", "/updates", "/promotions", "/delivery", "/report", "/services/web", "/settings", "/settings/tokens", "/settings/agents",
  "/settings/users", "/settings/environments", "/settings/notifications", "/settings/compose",
];

/** Collects CSP violations (the DOM event, and the console line Chromium prints) for the page's lifetime. */
async function watchViolations(page: Page): Promise<string[]> {
  const seen: string[] = [];
  await page.exposeFunction("__cspViolation", (text: string) => seen.push(text));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      (window as unknown as { __cspViolation: (t: string) => void }).__cspViolation(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} on ${location.pathname}`);
    });
  });
  page.on("console", (msg) => {
    if (/Content Security Policy|Refused to (execute|load|apply)/i.test(msg.text())) seen.push(`console: ${msg.text()}`);
  });
  return seen;
}

test("every page runs under a nonce-based policy with no violation", async ({ page }) => {
  const violations = await watchViolations(page);
  await signIn(page);
  for (const path of PAGES) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBeLessThan(400);
    const policy = res!.headers()["content-security-policy"] ?? "";
    const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
    expect(nonce, `${path}: ${policy}`).toBeTruthy();
    expect(policy).toContain("'strict-dynamic'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    // Every script element Next rendered carries this response's nonce (read as a property: browsers hide the attribute).
    const scripts = await page.locator("script").evaluateAll((els) => els.map((el) => (el as HTMLScriptElement).nonce));
    expect(scripts.length, path).toBeGreaterThan(0);
    for (const n of scripts) expect(n, path).toBe(nonce);
    await page.waitForLoadState("networkidle");
  }
  expect(violations).toEqual([]);
});

test("client code hydrates under the policy: a filter changes the URL", async ({ page }) => {
  const violations = await watchViolations(page);
  await signIn(page);
  await page.getByLabel("Search", { exact: true }).fill("web");
  await expect(page).toHaveURL(/[?&]q=web/);
  expect(violations).toEqual([]);
});

test("an injected inline script does not run", async ({ page }) => {
  const violations = await watchViolations(page);
  await signIn(page);
  // What an HTML injection would add: a script element without the nonce.
  const ran = await page.evaluate(async () => {
    const s = document.createElement("div");
    s.innerHTML = "<img src=x onerror=\"window.__pwned = 1\">";
    document.body.appendChild(s);
    await new Promise((r) => setTimeout(r, 300));
    return (window as unknown as { __pwned?: number }).__pwned ?? 0;
  });
  expect(ran).toBe(0);
  expect(violations.join("\n")).toMatch(/script-src/);
});
