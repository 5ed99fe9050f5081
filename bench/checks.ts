// The hourly upstream cycle for many repositories on the loopback registry:
// its duration, and what it costs in requests, counted from the registry's
// own access log. In steady state an unchanged repository costs one tag
// listing (one request per page) and no manifest GET.
import { summarizeRegistryRequests } from "@/tests/support/registry";
import { getUpstreamClients } from "@/lib/server/upstream-clients";
import { runCheckTick } from "@/lib/services/upstream/run-check-tick";
import { loadNow, type Figure } from "./figures";
import { pool, postReport, type Fleet } from "./fleet";

export type CycleResult = { seconds: number; checked: number; requests: Record<string, number> };

/**
 * One upstream cycle as the scheduler runs it (ticks of 500, 16 at once)
 * until nothing is due; the registry's requests counted from its access log.
 */
export async function runCheckCycle(fleet: Fleet): Promise<CycleResult> {
  const deps = { db: fleet.db, config: fleet.config, clients: getUpstreamClients(fleet.config), now: () => new Date() };
  await fleet.registry.clearLog();
  const start = performance.now();
  let checked = 0;
  for (;;) {
    const tick = await runCheckTick(deps, { limit: 500, concurrency: 16 });
    checked += tick.leased;
    if (tick.leased === 0) break;
  }
  const seconds = (performance.now() - start) / 1000;
  await fleet.registry.syncLog();
  return { seconds, checked, requests: summarizeRegistryRequests(fleet.registry.log) };
}

/**
 * The hourly cycle over the seeded fleet's repositories, an hour after the
 * first check, with nothing changed upstream: its duration (target scaled to
 * 120 s per 1,000 repositories), one tag page per repository, no manifest GET.
 */
export async function benchSteadyChecks(fleet: Fleet, repositories: number): Promise<Figure[]> {
  await fleet.db.upstreamRepository.updateMany({ where: { host: fleet.registry.host }, data: { dueAt: new Date(0) } });
  const load = loadNow();
  const steady = await runCheckCycle(fleet);
  const tagLists = steady.requests["GET tags/list"] ?? 0;
  const manifestGets = steady.requests["GET manifests"] ?? 0;
  const other = Object.entries(steady.requests).filter(([k]) => k !== "GET tags/list").reduce((n, [, v]) => n + v, 0);
  const per1000 = (steady.seconds * 1000) / Math.max(1, steady.checked);
  return [
    { name: "checks.hourly_cycle.seconds", value: round1(steady.seconds), unit: "s", target: `< ${round1(120 * repositories / 1000)} (120 s per 1,000 repositories)`, pass: per1000 < 120 && steady.checked === repositories, note: `${steady.checked} of ${repositories} repositories checked, nothing changed upstream`, load, scale: "lower" },
    { name: "checks.steady.requests_per_repository", value: round2(tagLists / Math.max(1, steady.checked)), unit: "requests", target: "≤ 1 (one tag page each)", pass: tagLists <= steady.checked && other === 0 && steady.checked > 0, note: JSON.stringify(steady.requests), load },
    { name: "checks.steady.manifest_gets", value: manifestGets, unit: "requests", target: "0", pass: manifestGets === 0 && steady.checked > 0, load },
  ];
}

export async function benchChecks(fleet: Fleet, opts: { repositories?: number } = {}, log: (l: string) => void = () => {}): Promise<Figure[]> {
  const count = opts.repositories ?? 1000;
  const ws = await fleet.workspace(`bench-checks-${Date.now().toString(36)}`);
  const names = Array.from({ length: count }, (_, i) => `bench/app-${i}`);
  const digests: string[] = [];
  const pushStart = performance.now();
  await pool(names, 8, async (name, i) => {
    const pushed = await fleet.registry.pushImage(name, "1.2.3");
    await fleet.registry.tagExisting(name, "1.2.4", "1.2.3");
    await fleet.registry.tagExisting(name, "latest", "1.2.3");
    digests[i] = pushed.digest;
  });
  log(`pushed ${count} repositories in ${Math.round((performance.now() - pushStart) / 1000)} s`);
  // Services running `latest` by digest: resolution work for the first cycle.
  for (let start = 0; start < count; start += 500) {
    await postReport(fleet.baseUrl, ws.agentKey, {
      environment: "production",
      target: { name: `docker@checks-${start}`, kind: "docker" },
      observed_at: new Date().toISOString(),
      workloads: names.slice(start, start + 500).map((name, j) => ({
        service: name.replace("/", "-"), container: "app", main: true, image: `${fleet.registry.host}/${name}:latest`,
        digest: digests[start + j], platform_digest: null, platform: "linux/amd64", since: "2026-11-01T00:00:00Z",
      })),
    });
  }
  const deps = { db: fleet.db, config: fleet.config, clients: getUpstreamClients(fleet.config), now: () => new Date() };
  const cycle = async () => {
    const start = performance.now();
    let checked = 0;
    for (;;) {
      const tick = await runCheckTick(deps, { limit: 500, concurrency: 16 });
      checked += tick.leased;
      if (tick.leased === 0) break;
    }
    return { seconds: (performance.now() - start) / 1000, checked };
  };
  await fleet.registry.clearLog();
  const first = await cycle();
  await fleet.registry.syncLog();
  const firstRequests = summarizeRegistryRequests(fleet.registry.log);
  log(`first cycle: ${first.checked} checked in ${first.seconds.toFixed(1)} s, requests ${JSON.stringify(firstRequests)}`);

  // An hour later nothing changed upstream: make everything due again.
  await fleet.db.upstreamRepository.updateMany({ where: { host: fleet.registry.host }, data: { dueAt: new Date(0) } });
  await fleet.registry.clearLog();
  const steady = await cycle();
  await fleet.registry.syncLog();
  const steadyRequests = summarizeRegistryRequests(fleet.registry.log);
  const tagLists = steadyRequests["GET tags/list"] ?? 0;
  const manifestGets = steadyRequests["GET manifests"] ?? 0;
  const other = Object.entries(steadyRequests).filter(([k]) => k !== "GET tags/list").reduce((n, [, v]) => n + v, 0);
  return [
    { name: "checks.hourly_cycle.seconds", value: round1(steady.seconds), unit: "s", target: `< 120 for ${count} repositories`, pass: steady.seconds < 120 && steady.checked === count, note: `${steady.checked} checked` },
    { name: "checks.steady.requests_per_repository", value: round2(tagLists / Math.max(1, steady.checked)), unit: "requests", target: "≤ 1 (one tag page each)", pass: tagLists <= steady.checked && other === 0, note: JSON.stringify(steadyRequests) },
    { name: "checks.steady.manifest_gets", value: manifestGets, unit: "requests", target: "0", pass: manifestGets === 0 },
    { name: "checks.first_cycle.seconds", value: round1(first.seconds), unit: "s", target: "", pass: null, note: `with moving-tag resolution: ${JSON.stringify(firstRequests)}` },
  ];
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const round2 = (n: number) => Math.round(n * 100) / 100;
