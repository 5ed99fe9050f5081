// Browser tests: Debian's Chromium drives `driftwatch start` on a fresh
// embedded database of its own.
import { defineConfig } from "@playwright/test";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

// Workers load this file again; the runner's choice is passed down by env.
process.env.DW_E2E_DIR ??= mkdtempSync(path.join(os.tmpdir(), "driftwatch-e2e-"));
const PORT = Number(process.env.DW_E2E_PORT ?? 3217);
export const BASE_URL = `http://127.0.0.1:${PORT}`;
/** A real registry on loopback that the server checks itself (Check now). */
export const REGISTRY_HOST = `127.0.0.1:${Number(process.env.DW_E2E_REGISTRY_PORT ?? PORT + 1)}`;
const registryDir = path.join(process.env.DW_E2E_DIR, "registry");
mkdirSync(registryDir, { recursive: true });
writeFileSync(path.join(registryDir, "config.yml"), `version: 0.1
log: { level: error, accesslog: { disabled: true } }
storage: { filesystem: { rootdirectory: ${registryDir}/data }, delete: { enabled: true } }
http: { addr: ${REGISTRY_HOST} }
`);

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  reporter: "list",
  globalTeardown: "./e2e/support/teardown.ts",
  use: {
    baseURL: BASE_URL,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-dev-shm-usage"],
    },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [
    // The demo first (its file sorts first): setup stays open until the first real owner.
    { name: "first-run", testMatch: /first-run(-demo)?\.spec\.ts/ },
    { name: "app", testIgnore: /first-run(-demo)?\.spec\.ts/, dependencies: ["first-run"] },
  ],
  webServer: [{
    command: `${process.env.DOCKER_REGISTRY_BIN ?? "/usr/bin/docker-registry"} serve ${path.join(registryDir, "config.yml")}`,
    url: `http://${REGISTRY_HOST}/v2/`,
    timeout: 30_000,
    reuseExistingServer: false,
  }, {
    command: `./bin/driftwatch.mjs start --port ${PORT} --eol=false`,
    url: `${BASE_URL}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    gracefulShutdown: { signal: "SIGTERM", timeout: 20_000 },
    env: { DATABASE_URL: "", DRIFTWATCH_DATA_DIR: path.join(process.env.DW_E2E_DIR, "data"), DRIFTWATCH_BASE_URL: BASE_URL, DRIFTWATCH_LOG_LEVEL: "warn",
      DOCKER_HOST: `unix://${path.join(process.env.DW_E2E_DIR, "docker.sock")}`,
      DRIFTWATCH_SERVER_REGISTRIES: REGISTRY_HOST, DRIFTWATCH_INSECURE_REGISTRIES: REGISTRY_HOST },
  }],
});
