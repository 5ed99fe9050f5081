// Report intake throughput: agents reporting 50 workloads each, through HTTP,
// with history checked afterwards. Target: ≥ 200 reports a second.
import { loadNow, type Figure } from "./figures";
import { pool, postReport, type Fleet } from "./fleet";
import { cpuMsOf, postgresCpuMs, postmasterOf } from "./process-cpu";

const D = (n: number) => `sha256:${n.toString(16).padStart(64, "0")}`;

export async function benchIntake(fleet: Fleet, opts: { targets?: number; workloads?: number; concurrency?: number } = {}): Promise<Figure[]> {
  const targets = opts.targets ?? 400;
  const perReport = opts.workloads ?? 50;
  const concurrency = opts.concurrency ?? 16;
  const ws = await fleet.workspace(`bench-intake-${Date.now().toString(36)}`);
  const t0 = Date.parse("2026-08-01T00:00:00Z");
  const report = (target: number, round: number) => ({
    environment: ["dev", "staging", "production", "perf"][target % 4],
    target: { name: `docker@intake-${target}`, kind: "docker" },
    observed_at: new Date(t0 + round * 3_600_000).toISOString(),
    workloads: Array.from({ length: perReport }, (_, w) => {
      // Each round moves every fifth workload to a new version.
      const version = w % 5 === round % 5 ? round : 0;
      return {
        service: `svc-${w}`, container: `svc-${w}`, main: true,
        image: `ghcr.io/bench/svc-${w}:1.${version}.0`, digest: D(w * 1000 + version + 1), platform_digest: null, platform: "linux/amd64",
        since: new Date(t0 + (version === 0 ? 0 : round * 3_600_000 - 60_000)).toISOString(),
      };
    }),
  });
  const ids = Array.from({ length: targets }, (_, i) => i);
  const postmaster = postmasterOf(fleet.databaseUrl);
  // CPU used meanwhile by the server and PostgreSQL, per report: throughput on a shared machine varies with the load.
  const timed = async (round: number) => {
    const before = { server: cpuMsOf(fleet.server.pid), db: postmaster === null ? null : postgresCpuMs(postmaster) };
    const start = performance.now();
    await pool(ids, concurrency, (t) => postReport(fleet.baseUrl, ws.agentKey, report(t, round)));
    const rate = (targets / (performance.now() - start)) * 1000;
    const msPerReport = (from: number | null, to: number | null) => (from === null || to === null ? "?" : ((to - from) / targets).toFixed(2));
    const cpu = `CPU per report: server ${msPerReport(before.server, cpuMsOf(fleet.server.pid))} ms, PostgreSQL ${msPerReport(before.db, postmaster === null ? null : postgresCpuMs(postmaster))} ms`;
    return { rate, cpu };
  };
  const load = loadNow();
  const { rate: firstRate, cpu: firstCpu } = await timed(0); // every row new
  const { rate: changedRate, cpu: changedCpu } = await timed(1); // a fifth of the workloads change version
  const { rate: repeatRate, cpu: repeatCpu } = await timed(1); // the same report again: nothing changes
  // History is right: per target, 50 rows from round 0, 10 replaced in round 1.
  const rows = await fleet.db.run.count({ where: { workspaceId: ws.id } });
  const open = await fleet.db.run.count({ where: { workspaceId: ws.id, to: null } });
  const expectedRows = targets * (perReport + perReport / 5);
  const correct = rows === expectedRows && open === targets * perReport;
  return [
    { name: "intake.reports_per_second.changing", value: round1(changedRate), unit: "reports/s", target: "≥ 200 (50 workloads each)", pass: changedRate >= 200 && correct, note: `${targets} targets, concurrency ${concurrency}; history ${correct ? "correct" : `WRONG (${rows} rows, ${open} open)`} (${rows} rows, ${open} open; expected ${expectedRows}, ${targets * perReport}); ${changedCpu}`, load, scale: "higher" },
    { name: "intake.reports_per_second.first", value: round1(firstRate), unit: "reports/s", target: "≥ 200", pass: firstRate >= 200, note: firstCpu, load, scale: "higher" },
    { name: "intake.reports_per_second.repeated", value: round1(repeatRate), unit: "reports/s", target: "", pass: null, note: `an unchanged report costs one indexed lookup; ${repeatCpu}`, load },
  ];
}

const round1 = (n: number) => Math.round(n * 10) / 10;
