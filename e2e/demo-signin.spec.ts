// `driftwatch demo` as a new user meets it: its address opens on sign-in with
// the printed credentials shown; they work, also after "Try the demo" on the
// setup page and after a restart. While it runs its targets keep reporting; a
// target that stops is marked quiet (greyed, with its age, under a banner) on
// the matrix, the service page and Updates. The matrix's summary line links
// its counts. At 1440 and 390 px, light and dark, axe clean; screenshots kept.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { shot } from "./support/owner";

const PORT = Number(process.env.DW_E2E_PORT ?? 3217) + 2;
const BASE = `http://127.0.0.1:${PORT}`;
const PRINTED = { email: "demo@example.com", password: "driftwatch-demo" };
// Short, so a target that stops goes quiet within the test; the demo reports every 10 s then.
const QUIET_AFTER = "30s";
const dataDir = mkdtempSync(path.join(os.tmpdir(), "driftwatch-e2e-demo-"));
const env = { ...process.env, DATABASE_URL: "", DRIFTWATCH_DATA_DIR: dataDir, DRIFTWATCH_QUIET_AFTER: QUIET_AFTER, DRIFTWATCH_LOG_LEVEL: "warn" };

type Demo = { child: ChildProcess; output: () => string };
let demo: Demo | null = null;

async function startDemo(): Promise<Demo> {
  const child = spawn("./bin/driftwatch.mjs", ["demo", "--port", String(PORT)], { env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (c: Buffer) => void (output += c.toString()));
  child.stderr!.on("data", (c: Buffer) => void (output += c.toString()));
  const deadline = Date.now() + 240_000;
  while (!output.includes("Driftwatch demo is running at")) {
    if (child.exitCode !== null) throw new Error(`driftwatch demo exited (${child.exitCode}):\n${output}`);
    if (Date.now() > deadline) throw new Error(`driftwatch demo not ready within 240 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return { child, output: () => output };
}

async function stopDemo(d: Demo): Promise<void> {
  if (d.child.exitCode !== null) return;
  const exited = new Promise((r) => d.child.once("exit", r));
  d.child.kill("SIGINT");
  await exited;
}

async function signInPrinted(page: Page) {
  await page.goto(`${BASE}/`);
  await expect(page).toHaveURL(/\/signin/);
  await expect(page.getByTestId("demo-credentials")).toContainText(`${PRINTED.email} with the password ${PRINTED.password}`);
  await expect(page.getByLabel("E-mail")).toHaveValue(PRINTED.email);
  await page.getByLabel("Password").fill(PRINTED.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Matrix" })).toBeVisible();
  await expect(page.getByText(PRINTED.email)).toBeVisible();
}

async function signOut(page: Page) {
  const menu = page.locator("summary", { hasText: "Menu" });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole("button", { name: "Sign out" }).first().click();
  await expect(page).toHaveURL(/\/signin/);
}

async function expectAxeClean(page: Page, where: string) {
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  const found = result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${where} ${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")}`);
  expect(found, found.join("\n")).toEqual([]);
}

const VIEWS = [
  { name: "1440", viewport: { width: 1440, height: 900 } },
  { name: "390", viewport: { width: 390, height: 844 } },
] as const;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  demo = await startDemo();
});

test.afterAll(async () => {
  if (demo) await stopDemo(demo);
});

test("the demo opens on sign-in with its credentials shown, at both widths, light and dark", async ({ page }) => {
  test.setTimeout(120_000);
  expect(demo!.output()).toContain(`Sign in as ${PRINTED.email} with the password ${PRINTED.password}`);
  expect(demo!.output()).not.toMatch(/Running next\.config/);
  for (const view of VIEWS) {
    await page.setViewportSize(view.viewport);
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      await page.goto(`${BASE}/`);
      await expect(page).toHaveURL(/\/signin/);
      await expect(page.getByRole("heading", { name: "Sign in to Driftwatch" })).toBeVisible();
      await expect(page.getByTestId("demo-credentials")).toBeVisible();
      await page.screenshot({ path: shot(`demo-signin-${view.name}-${colorScheme}`), fullPage: true });
      await expectAxeClean(page, `sign-in ${view.name} ${colorScheme}`);
    }
  }
  await signInPrinted(page);
});

test("the matrix's summary line: each count links to its list and equals it", async ({ page }) => {
  test.setTimeout(240_000);
  await signInPrinted(page);
  // End-of-life data is read by the server's first scheduler tick after the demo is filled: wait for it,
  // so the lists do not change while they are counted.
  const eol = page.locator("table.mx b.eol").first();
  await expect(async () => {
    await page.goto(`${BASE}/`);
    await expect(eol).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 120_000, intervals: [5_000] });
  const line = page.getByTestId("matrix-summary");
  const api = async (route: string) => (await (await page.request.get(`${BASE}${route}`)).json()) as { items: unknown[]; summary?: Record<string, number> };
  const lists = async () => {
    const [matrix, updates, drifts, promotions] = await Promise.all([api("/api/v1/matrix"), api("/api/v1/updates"), api("/api/v1/drifts"), api("/api/v1/promotions")]);
    expect(matrix.summary).toMatchObject({ to_act_on: updates.items.length, open_drifts: drifts.items.length, promotions_waiting: promotions.items.length });
    return { to_act_on: updates.items.length, open_drifts: drifts.items.length, promotions_waiting: promotions.items.length };
  };
  // The demo's scheduler keeps checking in the background: the page is compared with lists read
  // just before and just after it was drawn, and only when nothing changed in between.
  let counts: Awaited<ReturnType<typeof lists>> | undefined;
  await expect(async () => {
    const before = await lists();
    await page.goto(`${BASE}/`);
    await expect(line).toBeVisible({ timeout: 5_000 });
    const drawn = await line.innerText();
    expect(await lists()).toEqual(before);
    counts = before;
    expect(drawn).toContain(`${before.open_drifts} open drifts`);
  }).toPass({ timeout: 60_000, intervals: [2_000] });
  await expect(line.getByRole("link", { name: `${counts!.to_act_on} to act on` })).toHaveAttribute("href", "/updates");
  await expect(line.getByRole("link", { name: `${counts!.open_drifts} open drifts` })).toBeVisible();
  await expect(line.getByRole("link", { name: `${counts!.promotions_waiting} promotions waiting` })).toHaveAttribute("href", "/promotions");
  // The legend says what an outlined marker is.
  await expect(page.getByRole("list", { name: "Drift kinds" })).toContainText("Outlined: new, not notified yet");
  // The end-of-life badge explains itself on keyboard focus: the date and the fix.
  await eol.focus();
  const tip = page.locator(`#${await eol.getAttribute("aria-describedby")}`);
  await expect(tip).toBeVisible();
  await expect(tip).toContainText(/end of life on \d{4}-\d{2}-\d{2}: no more security fixes\. To fix: move to a supported cycle/);
  // The report counts the upstream releases published in the month (not "0": they are dated, not first seen today).
  const month = new Date().toISOString().slice(0, 7);
  const previous = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
  let releases = 0;
  for (const m of [month, previous]) {
    await page.goto(`${BASE}/report?month=${m}`);
    releases += Number(await page.locator(".stat", { hasText: "new upstream releases" }).locator(".stat-n").innerText());
  }
  expect(releases).toBeGreaterThan(5);
  await page.goto(`${BASE}/`);
  // "Needs attention first" follows the Updates order: its first row is the first line's service.
  await page.goto(`${BASE}/?sort=attention`);
  // Read again: end-of-life data arrived meanwhile and moved its lines to the top.
  const first = ((await api("/api/v1/updates")).items[0] as { service: string }).service;
  await expect(page.locator("table.mx tbody tr").first().locator("th a")).toHaveText(first);
});

test("a target that stops reporting is quiet wherever its versions show; the demo's own keep reporting", async ({ page }) => {
  test.setTimeout(240_000);
  // A second agent whose target reports once and then stops.
  const made = spawnSync("./bin/driftwatch.mjs", ["agent", "create", "--workspace", "demo", "--name", "legacy-agent"], { env, encoding: "utf8", timeout: 60_000 });
  expect(made.status, made.stderr).toBe(0);
  const report = {
    environment: "production", target: { name: "docker@legacy", kind: "docker" }, observed_at: new Date().toISOString(),
    workloads: [{ service: "legacy-billing", container: "legacy-billing", main: true, image: "registry.demo.invalid/acme/legacy-billing:1.4.2",
      digest: `sha256:${"1".repeat(64)}`, platform_digest: null, platform: "linux/amd64", since: new Date(Date.now() - 40 * 86_400_000).toISOString() }],
    registry_results: [],
  };
  const sent = await fetch(`${BASE}/api/v1/agent/report`, { method: "POST", headers: { authorization: `Bearer ${made.stdout.trim()}`, "content-type": "application/json" }, body: JSON.stringify(report) });
  expect(sent.status).toBe(202);

  await signInPrinted(page);
  // Past the quiet delay (30 s), the stopped target is quiet; the demo's targets still report.
  await expect(async () => {
    await page.goto(`${BASE}/`);
    await expect(page.getByTestId("quiet-banner")).toContainText("docker@legacy", { timeout: 2_000 });
  }).toPass({ timeout: 90_000, intervals: [5_000] });
  const matrix = (await (await page.request.get(`${BASE}/api/v1/matrix`)).json()) as { summary: { quiet_targets: number }; services: { name: string; cells: { quiet: boolean; targets: { name: string; state: string }[] }[] }[] };
  expect(matrix.summary.quiet_targets).toBe(1);
  const states = new Map(matrix.services.flatMap((s) => s.cells.flatMap((c) => c.targets.map((t) => [t.name, t.state] as const))));
  expect(states.get("docker@legacy")).toBe("quiet");
  for (const name of ["docker@dev-1", "k8s@staging", "k8s@prod-eu", "k8s@prod-us"]) expect(states.get(name), name).toBe("reporting");
  expect(matrix.services.find((s) => s.name === "legacy-billing")!.cells[0]!.quiet).toBe(true);
  await expect(page.getByTestId("matrix-summary")).toContainText("1 quiet target");
  const metrics = await (await page.request.get(`${BASE}/metrics`)).text();
  expect(metrics).toMatch(/^driftwatch_targets\{state="quiet"\} 1$/m);

  await page.goto(`${BASE}/?q=legacy`);
  const cell = page.locator("table.mx td.quiet");
  await expect(cell).toContainText("1.4.2");
  await expect(cell).toContainText("quiet: last report");

  for (const view of VIEWS) {
    await page.setViewportSize(view.viewport);
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      await page.goto(`${BASE}/`);
      await expect(page.getByTestId("matrix-summary")).toBeVisible();
      await expect(page.getByTestId("quiet-banner")).toBeVisible();
      await page.screenshot({ path: shot(`demo-matrix-summary-quiet-${view.name}-${colorScheme}`), fullPage: view.name === "390" });
      await expectAxeClean(page, `matrix ${view.name} ${colorScheme}`);
      // The quiet cell itself, under the summary line and the banner.
      await page.goto(`${BASE}/?q=legacy`);
      await expect(page.locator("table.mx td.quiet")).toContainText("quiet: last report");
      await page.screenshot({ path: shot(`demo-matrix-quiet-cell-${view.name}-${colorScheme}`), fullPage: true });
      await expectAxeClean(page, `matrix quiet cell ${view.name} ${colorScheme}`);
      await page.goto(`${BASE}/services/legacy-billing`);
      await expect(page.getByTestId("quiet-banner")).toBeVisible();
      await expect(page.getByTestId("quiet-note").first()).toContainText("last report");
      await page.screenshot({ path: shot(`demo-service-quiet-${view.name}-${colorScheme}`), fullPage: true });
      await expectAxeClean(page, `service page ${view.name} ${colorScheme}`);
      await page.goto(`${BASE}/updates`);
      await expect(page.getByTestId("quiet-banner")).toBeVisible();
      await expectAxeClean(page, `updates ${view.name} ${colorScheme}`);
    }
  }
});

test("Try the demo on the setup page leaves the printed password working, and so does a restart", async ({ page }) => {
  test.setTimeout(300_000);
  await signInPrinted(page);
  await signOut(page);
  await page.goto(`${BASE}/setup`);
  await page.getByRole("button", { name: "Try the demo" }).click();
  await expect(page.getByRole("heading", { name: "Matrix" })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText(PRINTED.email)).toBeVisible();
  await signOut(page);
  await signInPrinted(page);
  await signOut(page);

  await stopDemo(demo!);
  const restartedAt = Date.now();
  demo = await startDemo();
  expect(demo.output()).toContain("already filled");
  await signInPrinted(page);
  // The second run reports too: the demo's targets were seen after the restart.
  const targets = (await (await page.request.get(`${BASE}/api/v1/targets`)).json()) as { items: { name: string; last_report_at: string | null }[] };
  const seen = new Map(targets.items.map((t) => [t.name, t.last_report_at] as const));
  for (const name of ["docker@dev-1", "k8s@staging", "k8s@prod-eu", "k8s@prod-us"]) expect(Date.parse(seen.get(name)!), name).toBeGreaterThan(restartedAt);
});
