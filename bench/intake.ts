// Report intake throughput: agents reporting 50 workloads each, through HTTP,
// with history checked afterwards. Target: ≥ 200 reports a second.
import { loadNow, type Figure } from "./figures";
import { pool, postReport, type Fleet } from "./fleet";
import { cpuMsOf, postgresCpuMs, postmasterOf } from "./process-cpu";

const D = (n: number) => `sha256:${n.toString(16).padStart(64, "0")}`;

type Round = { rate: number; cpu: string };

/**
 * Three sets of `targets` targets, each in a workspace of its own: their first reports (every row new), a
 * round where a fifth of the workloads change version, and that round again (nothing changes). Each figure
 * is the median set: a 2-second burst on a shared 2-core machine now and then lands on a checkpoint or a
 * neighbour's load, and one such burst is not the server's throughput.
 */
export async function benchIntake(fleet: Fleet, opts: { targets?: number; workloads?: number; concurrency?: number; sets?: number } = {}): Promise<Figure[]> {
  const targets = opts.targets ?? 400;
  const perReport = opts.workloads ?? 50;
  const concurrency = opts.concurrency ?? 16;
  const sets = opts.sets ?? 3;
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
  const timed = async (agentKey: string, round: number): Promise<Round> => {
    const before = { server: cpuMsOf(fleet.server.pid), db: postmaster === null ? null : postgresCpuMs(postmaster) };
    const start = performance.now();
    await pool(ids, concurrency, (t) => postReport(fleet.baseUrl, agentKey, report(t, round)));
    const rate = (targets / (performance.now() - start)) * 1000;
    const msPerReport = (from: number | null, to: number | null) => (from === null || to === null ? "?" : ((to - from) / targets).toFixed(2));
    const cpu = `CPU per report: server ${msPerReport(before.server, cpuMsOf(fleet.server.pid))} ms, PostgreSQL ${msPerReport(before.db, postmaster === null ? null : postgresCpuMs(postmaster))} ms`;
    return { rate, cpu };
  };
  const load = loadNow();
  const first: Round[] = [];
  const changed: Round[] = [];
  const repeated: Round[] = [];
  const history: string[] = [];
  let correct = true;
  const expectedRows = targets * (perReport + perReport / 5);
  for (let set = 0; set < sets; set++) {
    const ws = await fleet.workspace(`bench-intake-${Date.now().toString(36)}-${set}`);
    first.push(await timed(ws.agentKey, 0)); // every row new
    changed.push(await timed(ws.agentKey, 1)); // a fifth of the workloads change version
    repeated.push(await timed(ws.agentKey, 1)); // the same report again: nothing changes
    // History is right: per target, 50 rows from round 0, 10 replaced in round 1.
    const rows = await fleet.db.run.count({ where: { workspaceId: ws.id } });
    const open = await fleet.db.run.count({ where: { workspaceId: ws.id, to: null } });
    const ok = rows === expectedRows && open === targets * perReport;
    correct &&= ok;
    history.push(`${ok ? "correct" : "WRONG"} (${rows} rows, ${open} open)`);
  }
  const median = (rounds: Round[]) => [...rounds].sort((a, b) => a.rate - b.rate)[Math.floor(rounds.length / 2)]!;
  const all = (rounds: Round[]) => `median of ${rounds.length} sets (${rounds.map((r) => round1(r.rate)).join(", ")} reports/s)`;
  const [f, c, r] = [median(first), median(changed), median(repeated)];
  return [
    { name: "intake.reports_per_second.changing", value: round1(c.rate), unit: "reports/s", target: "≥ 200 (50 workloads each)", pass: c.rate >= 200 && correct, note: `${all(changed)} of ${targets} targets, concurrency ${concurrency}; history ${history.join(", ")}, expected ${expectedRows} rows, ${targets * perReport} open; ${c.cpu}`, load, scale: "higher" },
    { name: "intake.reports_per_second.first", value: round1(f.rate), unit: "reports/s", target: "≥ 200", pass: f.rate >= 200, note: `${all(first)}; ${f.cpu}`, load, scale: "higher" },
    { name: "intake.reports_per_second.repeated", value: round1(r.rate), unit: "reports/s", target: "", pass: null, note: `${all(repeated)}; an unchanged report costs one indexed lookup; ${r.cpu}`, load },
  ];
}

const round1 = (n: number) => Math.round(n * 10) / 10;
