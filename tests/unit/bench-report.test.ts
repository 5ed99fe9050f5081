import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { renderResults, writeResultsFile, type BenchResults } from "@/bench/report";

const results: BenchResults = {
  at: "2026-11-27T08:30:00.000Z",
  args: ["--sizes", "500,2000"],
  wall_seconds: 1260,
  machine: { cpus: 2, memory_gb: 24, node: "v20.20.2", loadavg_start: [0.5, 0.4, 0.3], loadavg_end: [2.1, 1.8, 1.2] },
  fleet: { "500": { services: 500, targets: 12 }, "2000": { services: 2000, targets: 24 } },
  figures: [
    { name: "versions.parse.tags_per_second", value: 2543536, unit: "tags/s", target: "> 1,000,000 tags/s", pass: true, load: 0.65, speed: 1.73 },
    { name: "api.matrix.p95_ms", value: 44, unit: "ms", target: "< 150 ms", pass: true, size: 500, load: 1.2, speed: 2.1 },
    { name: "api.matrix.p95_ms", value: 180, unit: "ms", target: "< 150 ms", pass: false, size: 2000, load: 3.9, speed: 1.5 },
    { name: "seed.reports_per_second", value: null, unit: "reports/s", target: "", pass: null, note: "a | b", size: 2000 },
  ],
  growth: [
    { name: "api.matrix.p95_ms", unit: "ms", values: { "500": 44, "2000": 180 }, factors: [{ from: 500, to: 2000, factor: 4.09, limit: 4.5, verdict: "super-linear" }] },
  ],
};

describe("bench report", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "bench-report-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("renders every figure under its size, with verdicts, the failures and the growth", () => {
    const md = renderResults(results);

    expect(md).toContain("`npm run bench -- --sizes 500,2000`, 21 min.");
    expect(md).toContain("2 of 3 judged figures pass, 1 informational; failing: `api.matrix.p95_ms` @2000.");
    expect(md).toContain("## Independent of the fleet\n\n| | figure | value | target | load | speed |\n|---|---|---|---|---|---|\n| PASS | `versions.parse.tags_per_second` | 2543536 tags/s | > 1,000,000 tags/s | 0.65 | 1.73 |");
    expect(md).toContain("## 2,000 services\n\nFleet: `{\"services\":2000,\"targets\":24}`");
    expect(md).toContain("| **FAIL** | `api.matrix.p95_ms` | 180 ms | < 150 ms | 3.90 | 1.50 |");
    expect(md).toContain("| info | `seed.reports_per_second` | — | — |  |  |");
    expect(md).toContain("| `api.matrix.p95_ms` (ms) | 44 | 180 | 4.09 | super-linear 500→2000 |");
    expect(md).toContain("Every growth is within the limit.");
    expect(md).toContain("- The 1-minute load reached 3.90 on 2 cores: other work shared the machine");
    expect(md).not.toContain("A quick run");
  });

  it("marks a quick run as one to iterate with, not to compare", () => {
    expect(renderResults({ ...results, args: ["--quick"] })).toContain("- A quick run (`--quick`): shorter loads at one size");
  });

  it("writes the page from a results file", async () => {
    const input = path.join(dir, "latest.json");
    const output = path.join(dir, "RESULTS.md");
    await writeFile(input, JSON.stringify(results));

    await writeResultsFile(input, output);

    expect(await readFile(output, "utf8")).toEqual(renderResults(results));
  });

  it("says in one line what is wrong with a missing or foreign file", async () => {
    const missing = path.join(dir, "none.json");
    await expect(writeResultsFile(missing, path.join(dir, "out.md"))).rejects.toThrow(`${missing} does not exist: run npm run bench first`);

    const foreign = path.join(dir, "other.json");
    await writeFile(foreign, JSON.stringify({ at: "now", figures: [] }));
    await expect(writeResultsFile(foreign, path.join(dir, "out.md"))).rejects.toThrow(/is not a benchmark result: args: /);
  });
});
