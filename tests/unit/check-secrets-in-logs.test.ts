// The secrets-in-logs check (scripts/check-secrets-in-logs.mjs) catches what it
// should, says where without repeating the secret, and passes a clean run.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const SCRIPT = path.resolve(import.meta.dirname, "../../scripts/check-secrets-in-logs.mjs");

function run(files: Record<string, string>) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "dw-secrets-check-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  const r = spawnSync(process.execPath, [SCRIPT, dir], { encoding: "utf8" });
  return { code: r.status, out: r.stdout + r.stderr };
}

const secrets = (...values: [string, string][]) => values.map(([kind, value]) => JSON.stringify({ kind, value })).join("\n") + "\n";
const TOKEN = "dw_" + "A1b2C3d4E5".repeat(4);

describe("check-secrets-in-logs", () => {
  it("passes when no recorded secret is in any log", () => {
    const r = run({ "secrets.jsonl": secrets(["password", "pw-correct-horse"], ["API token", TOKEN]), "server.log": "info started\nwarn token dw_A1b2C3d4…\n" });
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/2 secrets checked against 1 logs .*: 0 hits/);
  });

  it("fails on a recorded secret, naming kind, file and line but not the value", () => {
    const r = run({ "secrets.jsonl": secrets(["webhook secret", "whsec-0123456789"]), "a.log": "ok\nerror posting with whsec-0123456789\n" });
    expect(r.code).toBe(1);
    expect(r.out).toContain("webhook secret at a.log:2");
    expect(r.out).not.toContain("whsec-0123456789");
  });

  it("fails on any whole API token or agent key, recorded or not", () => {
    const r = run({ "secrets.jsonl": secrets(["password", "pw-correct-horse"]), "b.log": `error auth ${TOKEN.replace("dw_", "dwa_")}\n` });
    expect(r.code).toBe(1);
    expect(r.out).toContain("agent key (unrecorded) at b.log:1");
  });

  it("refuses to pass vacuously: no logs or no secrets is a failure", () => {
    expect(run({ "secrets.jsonl": secrets(["password", "pw-correct-horse"]) }).code).toBe(1);
    expect(run({ "server.log": "info\n" }).code).toBe(1);
  });
});
