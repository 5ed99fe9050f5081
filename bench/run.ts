// npm run bench: every performance figure with its target and PASS/FAIL,
// written to bench/results/latest.json. `npm run bench -- --only versions,intake`
// runs some sections; BENCH_REPOSITORIES / BENCH_INTAKE_TARGETS scale the fleet.
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { benchChecks } from "./checks";
import { benchDrift } from "./drift";
import { benchDriftDb } from "./drift-db";
import type { Figure } from "./figures";
import { startFleet, type Fleet } from "./fleet";
import { benchInsights, seedInsightsHistory } from "./insights";
import { benchIntake } from "./intake";
import { benchMatrix } from "./matrix";
import { benchRender } from "./render";
import { benchVersions } from "./versions";

type Section = { name: string; needsFleet: boolean; run: (fleet: Fleet | null, log: (l: string) => void) => Promise<Figure[]> };

const SECTIONS: Section[] = [
  { name: "versions", needsFleet: false, run: () => benchVersions() },
  { name: "drift", needsFleet: false, run: () => benchDrift() },
  { name: "render", needsFleet: false, run: () => benchRender() },
  { name: "intake", needsFleet: true, run: (f) => benchIntake(f!, { targets: Number(process.env.BENCH_INTAKE_TARGETS ?? 400) }) },
  { name: "drift-db", needsFleet: false, run: () => benchDriftDb() },
  {
    name: "insights",
    needsFleet: true,
    run: async (f, log) => {
      const ws = await f!.workspace(`bench-insights-${Date.now().toString(36)}`);
      const seeded = await seedInsightsHistory(f!.db, { workspaceId: ws.id, now: new Date() });
      log(`seeded ${JSON.stringify(seeded)}`);
      return benchInsights(f!.baseUrl, ws.token);
    },
  },
  { name: "matrix-page", needsFleet: true, run: (f, log) => benchMatrix(f!, log) },
  { name: "checks", needsFleet: true, run: (f, log) => benchChecks(f!, { repositories: Number(process.env.BENCH_REPOSITORIES ?? 1000) }, log) },
];

function print(figures: Figure[]) {
  const rows = figures.map((f) => [f.pass === null ? "info" : f.pass ? "PASS" : "FAIL", f.name, `${f.value} ${f.unit}`, f.target, f.note ?? ""]);
  const widths = [4, ...[1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i]!.length)))];
  for (const r of rows) console.log(r.map((c, i) => (i < 4 ? c.padEnd(widths[i]!) : c)).join("  ").trimEnd());
}

async function main() {
  const onlyArg = process.argv.find((a) => a.startsWith("--only"));
  const only = onlyArg ? (onlyArg.includes("=") ? onlyArg.split("=")[1] : process.argv[process.argv.indexOf(onlyArg) + 1])?.split(",") : null;
  const sections = SECTIONS.filter((s) => !only || only.includes(s.name));
  const log = (l: string) => console.log(`  · ${l}`);
  const all: Figure[] = [];
  let fleet: Fleet | null = null;
  try {
    for (const section of sections) {
      console.log(`\n== ${section.name}`);
      if (section.needsFleet && !fleet) fleet = await startFleet(log);
      const figures = await section.run(fleet, log);
      print(figures);
      all.push(...figures);
    }
    if (fleet) {
      const rss = fleet.serverRss();
      if (rss !== null) {
        const f: Figure = { name: "server.rss_mb", value: Math.round(rss), unit: "MB", target: "< 400", pass: rss < 400 };
        print([f]);
        all.push(f);
      }
    }
  } finally {
    await fleet?.stop();
  }
  const failed = all.filter((f) => f.pass === false);
  await mkdir(path.join(import.meta.dirname, "results"), { recursive: true });
  await writeFile(
    path.join(import.meta.dirname, "results", "latest.json"),
    JSON.stringify({ at: new Date().toISOString(), machine: { cpus: os.cpus().length, memory_gb: Math.round(os.totalmem() / 2 ** 30), node: process.version }, figures: all }, null, 2) + "\n",
  );
  console.log(`\n${all.length - failed.length} of ${all.length} figures pass or are informational; ${failed.length} fail. Written to bench/results/latest.json`);
  process.exit(failed.length ? 1 : 0);
}

await main();
