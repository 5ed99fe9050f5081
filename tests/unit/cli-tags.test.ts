// `driftwatch tags newest`, run as a user would, offline.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const run = (args: string[], input: string) =>
  spawnSync(process.execPath, [path.join(ROOT, "bin/driftwatch.mjs"), "tags", "newest", ...args], { input, encoding: "utf8", timeout: 30_000 });

const NGINX = JSON.stringify(["1.26.2", "1.27.1", "1.27.3", "1.28.0", "2.0.0", "1.28.0-alpine", "latest", "mainline", "1.29.0-rc.1"]);

describe("driftwatch tags newest", () => {
  it.each([
    [["--running", "1.27.1"], { running: "1.27.1", newest: "2.0.0", jump: "major", target: "2.0.0", alert: true }],
    [["--running", "1.27.1", "--pin-major", "1", "--track", "minor"], { running: "1.27.1", newest: "2.0.0", jump: "major", target: "1.28.0", alert: true }],
    [["--running", "1.28.0", "--pin-major", "1"], { running: "1.28.0", newest: "2.0.0", jump: "major", target: null, alert: false }],
    [["--running", "2.0.0"], { running: "2.0.0", newest: null, jump: null, target: null, alert: false }],
    [["--running", "latest"], { running: "latest", newest: "2.0.0", jump: null, target: null, alert: false }],
    [["--running", "1.27.1", "--tag-filter", "^1\\.27\\."], { running: "1.27.1", newest: "1.27.3", jump: "patch", target: "1.27.3", alert: true }],
  ])("%j", (args, expected) => {
    const r = run(args, NGINX);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(expected);
  });

  it("reads a registry tags/list body too", () => {
    const r = run(["--running", "1.27.1"], JSON.stringify({ name: "library/nginx", tags: ["1.27.1", "1.27.3"] }));
    expect(JSON.parse(r.stdout)).toMatchObject({ newest: "1.27.3", jump: "patch" });
  });

  it("exits non-zero with one line for an invalid tag_filter or input", () => {
    for (const [args, input] of [[["--running", "1.0.0", "--tag-filter", "(a"], NGINX], [["--running", "1.0.0"], "{not json"], [["--running", "1.0.0"], '{"tags": 3}']] as const) {
      const r = run([...args], input);
      expect(r.status).not.toBe(0);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    }
  });
});
