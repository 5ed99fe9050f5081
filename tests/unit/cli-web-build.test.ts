// `driftwatch start` and `demo` build a missing or stale web app the way
// `npm start` does, instead of refusing to start. The build is made to fail at
// once (its output folder is a file), so the test sees the build path cheaply.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const BLOCKED = `.next-cli-web-build-${process.pid}`;
let dataDir = "";

beforeAll(() => {
  mkdirSync(path.join(ROOT, BLOCKED), { recursive: true });
  writeFileSync(path.join(ROOT, BLOCKED, "dist"), "a file where the build's folder would go\n");
  dataDir = mkdtempSync(path.join(os.tmpdir(), "dw-web-build-"));
});
afterAll(() => {
  rmSync(path.join(ROOT, BLOCKED), { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

function cli(args: string[]) {
  const env = {
    ...process.env,
    NEXT_DIST_DIR: `${BLOCKED}/dist`,
    DRIFTWATCH_DATA_DIR: dataDir,
    DATABASE_URL: "postgresql://nobody:nothing@127.0.0.1:9/nowhere?connect_timeout=2",
  };
  const r = spawnSync(process.execPath, [path.join(ROOT, "bin/driftwatch.mjs"), ...args], { cwd: ROOT, env, encoding: "utf8", timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("a missing web app build", () => {
  it.each([[["start", "--port", "3361"]], [["demo", "--port", "3361"]]])("%j builds it first, with npm start's notice", (args) => {
    const r = cli(args);
    expect(r.stdout).toContain("Building the web app (first start)… failed.");
    expect(r.stderr).toContain(`The whole build log: ${path.join(dataDir, "next-build.log")}`);
    expect(r.stderr.trimEnd().split("\n").pop()).toBe("driftwatch: building the web app failed; its log is named above");
    expect(r.code).toBe(1);
  });
});
