// Settings › Agents › This Docker host: with no socket it says so and gives the agent command; with an
// Engine API on the server's DOCKER_HOST (replayed from recorded bodies, nothing running on it) an owner
// watches it as an existing environment, sees its state after the server's own run, and stops.
import { rmSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { startReplayServer, type ReplayServer } from "../tests/support/replay-server";
import { runtimeFixture } from "../tests/support/docker-fixture-routes";
import { shot, signIn } from "./support/owner";
import { seedWorkspace } from "./support/seed";

const SOCKET = path.join(process.env.DW_E2E_DIR!, "docker.sock");
let engine: ReplayServer | undefined;
test.afterAll(async () => engine?.close());

test("an owner watches the server's Docker host and stops", async ({ page, request }) => {
  await seedWorkspace(request);
  await signIn(page);
  await page.goto("/settings/agents");
  await expect(page.getByRole("heading", { name: "This Docker host" })).toBeVisible();
  await expect(page.getByText(`Driftwatch cannot read a Docker socket here: No Docker socket at unix://${SOCKET}.`)).toBeVisible();
  await expect(page.getByText(/npx driftwatch agent --url \S+ --key <agent key> --environment production/)).toBeVisible();
  await expect(page.getByRole("form", { name: "Watch this Docker host" })).toHaveCount(0);

  rmSync(SOCKET, { force: true });
  engine = await startReplayServer([
    { path: "/_ping", reply: { headers: { "api-version": "1.41", "content-type": "text/plain" }, body: "OK" } },
    { path: /\/info$/, reply: { body: runtimeFixture("docker/info.json") } },
    { path: /\/containers\/json/, reply: { body: [] } },
  ], { socketPath: SOCKET });
  // The page re-probes once its last answer is a few seconds old.
  await expect(async () => {
    await page.reload();
    await expect(page.getByText("Driftwatch can read the Docker Engine at")).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  const form = page.getByRole("form", { name: "Watch this Docker host" });
  await form.getByLabel("Environment").fill("production");
  await page.screenshot({ path: shot("docker-host-form"), fullPage: true });
  await form.getByRole("button", { name: "Watch this Docker host" }).click();
  await expect(page.getByRole("status")).toHaveText(/Watching docker@app-host-1 as production/);

  const row = page.getByTestId("docker-host-watch").filter({ hasText: "docker@app-host-1" });
  await expect(async () => {
    await page.reload();
    await expect(row.getByText("reporting", { exact: true })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(row.getByRole("cell", { name: "0", exact: true })).toBeVisible();
  await page.screenshot({ path: shot("docker-host-watching"), fullPage: true });
  const axe = await new AxeBuilder({ page }).include("section[aria-labelledby=docker-host-h]").withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);

  await row.getByRole("button", { name: "Stop watching docker@app-host-1" }).click();
  await expect(page.getByRole("status")).toHaveText(/Stopped watching docker@app-host-1/);
  await expect(row.getByText("stopped", { exact: true })).toBeVisible();
});
