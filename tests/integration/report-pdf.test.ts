// The demo's monthly report as a PDF, on A4 and on Letter, as a new user
// saves it: `driftwatch demo` from a cold data directory, signed in with the
// credentials it prints, then /report/pdf read back with poppler's pdfinfo
// and pdftotext. At most four pages; every page names the workspace and
// month and numbers itself; no row number, date or version is broken across
// lines. Two pages are kept as PNG in e2e/artifacts to look at.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_PATH } from "@/lib/server/pdf";
import { freePort } from "../support/server";
import { sessionCookie } from "../support/session";

const ROOT = path.resolve(import.meta.dirname, "../..");
const BIN = path.join(ROOT, "bin/driftwatch.mjs");
const ARTIFACTS = path.join(ROOT, "e2e/artifacts");
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

let dataDir: string;
let base: string;
let demo: ChildProcess;
let cookie: string;

/** A poppler tool's stdout; poppler-utils is a test dependency like Chromium. */
function poppler(tool: string, args: string[]): string {
  const r = spawnSync(tool, args, { encoding: "utf8", timeout: 60_000 });
  if (r.error) throw new Error(`${tool} is needed for this test (apt-get install poppler-utils): ${r.error.message}`);
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

beforeAll(async () => {
  expect(existsSync(CHROMIUM_PATH), `the server renders PDFs with Chromium at ${CHROMIUM_PATH}`).toBe(true);
  dataDir = mkdtempSync(path.join(os.tmpdir(), "driftwatch-report-pdf-"));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const { DATABASE_URL: _unused, ...env } = process.env;
  demo = spawn(BIN, ["demo", "--port", String(port)], { cwd: ROOT, env: { ...env, DRIFTWATCH_DATA_DIR: dataDir }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  demo.stdout!.on("data", (c: Buffer) => void (output += c.toString()));
  demo.stderr!.on("data", (c: Buffer) => void (output += c.toString()));
  const deadline = Date.now() + 240_000;
  while (!output.includes("Driftwatch demo is running at")) {
    if (demo.exitCode !== null) throw new Error(`driftwatch demo exited (${demo.exitCode}):\n${output}`);
    if (Date.now() > deadline) throw new Error(`driftwatch demo was not ready within 240 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const [, email, password] = /Sign in as (\S+) with the password (\S+?)[\s(]/.exec(output) ?? [];
  expect(email, output).toBeTruthy();
  cookie = await sessionCookie(email!, password!, base);
}, 300_000);

afterAll(async () => {
  if (demo?.exitCode === null) {
    const exited = new Promise((r) => demo.once("exit", r));
    demo.kill("SIGINT");
    await exited;
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe.each([
  { paper: "a4", size: "595.92 x 842.88 pts (A4)" },
  { paper: "letter", size: "612 x 792 pts (letter)" },
])("the demo's monthly report on $paper", ({ paper, size }) => {
  let file: string;
  let pages: string[];
  let attention: number;

  beforeAll(async () => {
    const started = Date.now();
    const res = await fetch(`${base}/report/pdf?paper=${paper}`, { headers: { cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    const bytes = Buffer.from(await res.arrayBuffer());
    console.log(`the demo's report on ${paper}: ${bytes.length} bytes in ${Date.now() - started} ms`);
    file = path.join(dataDir, `report-${paper}.pdf`);
    writeFileSync(file, bytes);
    const count = Number(/^Pages:\s+(\d+)$/m.exec(poppler("pdfinfo", [file]))?.[1]);
    pages = Array.from({ length: count }, (_, i) => poppler("pdftotext", ["-layout", "-f", String(i + 1), "-l", String(i + 1), file, "-"]));
    const updates = await fetch(`${base}/api/v1/updates`, { headers: { cookie } });
    attention = ((await updates.json()) as { items: unknown[] }).items.length;
    mkdirSync(ARTIFACTS, { recursive: true });
    poppler("pdftoppm", ["-r", "80", "-png", "-f", "1", "-l", "2", file, path.join(ARTIFACTS, `report-pdf-${paper}`)]);
  }, 120_000);

  it(`is ${size}, in at most four pages`, () => {
    expect(poppler("pdfinfo", [file])).toContain(`Page size:       ${size}`);
    console.log(`the demo's report on ${paper}: ${pages.length} pages`);
    expect(pages.length).toBeGreaterThan(0);
    expect(pages.length).toBeLessThanOrEqual(4);
  });

  it("names the workspace and month and numbers every page", () => {
    const now = new Date();
    const month = `${MONTHS[now.getUTCMonth()]} ${now.getUTCFullYear()}`;
    pages.forEach((text, i) => {
      expect(text, `page ${i + 1}`).toContain(`Driftwatch monthly report · demo · ${month}`);
      expect(text, `page ${i + 1}`).toContain(`Page ${i + 1} of ${pages.length}`);
    });
  });

  it("breaks no row number, date, version or heading across lines", () => {
    const text = pages.join("\n");
    // Each line needing attention starts with its number, whole and in order.
    const numbers = [...text.matchAll(/^ *(\d{1,3}) {2,}(?:End of life|Major|Minor|Patch|Behind|Differs|Targets)/gm)].map((m) => Number(m[1]));
    expect(attention).toBeGreaterThan(0);
    expect(numbers).toEqual(Array.from({ length: attention }, (_, i) => i + 1));
    expect(text).toMatch(/\b\d{4}-\d{2}-\d{2}\b/);
    expect(text.match(/\b\d{4}-\d{2}-?(?![\d-])/g) ?? [], "a date cut short").toEqual([]);
    expect(text.match(/^.*\b\d+\.(?:\d+\.)?$/gm) ?? [], "a line ending inside a version").toEqual([]);
    expect(text.match(/^ *\.\d.*$/gm) ?? [], "a line starting inside a version").toEqual([]);
    for (const heading of ["ENVIRONMENT", "Needs attention now", "Deployed per environment", "Arrivals in detail"]) expect(text).toContain(heading);
  });

  it("keeps each heading on the page of what follows it", () => {
    for (const [i, text] of pages.entries()) {
      const last = text.trimEnd().split("\n").filter((l) => l.trim() && !l.includes(`Page ${i + 1} of`)).at(-1) ?? "";
      expect(["Needs attention now", "Deployed per environment", "New upstream releases", "Services by team", "Targets", "Arrivals in detail"], `page ${i + 1} ends with a heading`).not.toContain(last.trim());
    }
  });
});
