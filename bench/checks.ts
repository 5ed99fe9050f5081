// The hourly upstream cycle for many repositories on the loopback registry:
// its duration, and what it costs in requests, counted from the registry's
// own access log. In steady state an unchanged repository costs one tag
// listing (one request per page) and no manifest GET.
import { summarizeRegistryRequests, countRegistryRequests } from "@/tests/support/registry";
import { createRegistryClient } from "@/lib/adapters/registries/client";
import { getUpstreamClients } from "@/lib/server/upstream-clients";
import type { CheckDeps } from "@/lib/services/upstream/check-repository";
import { readDueSourceLabels } from "@/lib/services/upstream/read-source-labels";
import { runCheckTick } from "@/lib/services/upstream/run-check-tick";
import { loadNow, type Figure } from "./figures";
import { pool, postReport, type Fleet } from "./fleet";

export type CycleResult = { seconds: number; checked: number; requests: Record<string, number> };

/**
 * One upstream cycle as the scheduler runs it (ticks of 500, 16 at once)
 * until nothing is due; the registry's requests counted from its access log.
 */
export async function runCheckCycle(fleet: Fleet): Promise<CycleResult> {
  const deps = { db: fleet.db, config: fleet.config, clients: getUpstreamClients(fleet.config) };
  await fleet.registry.clearLog();
  const start = performance.now();
  let checked = 0;
  for (;;) {
    const tick = await runCheckTick({ ...deps, now: new Date() }, { limit: 500, concurrency: 16 });
    checked += tick.leased;
    // Labels are read after each tick's checks, a batch at a time: the cycle ends when neither is left.
    if (tick.leased === 0 && tick.labels.read + tick.labels.failed + tick.labels.no_tag === 0) break;
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

// Reads after the first fall on each repository's own minute of the week, 6 to 13 days on: the third
// simulated week is the steady state, where each repository's label is read once.
const SETTLE_DAYS = 14;
const MEASURED_DAYS = 7;

/**
 * Pulls per repository per week once labels are known, with the loopback registry rationed like Docker Hub
 * (10 pulls an hour): every other repository's service names its forge in its policy (source known
 * otherwise: no label read, 0 pulls); the others' labels are read again over a simulated week. Hourly
 * checks spend no pulls in steady state (checks.steady.manifest_gets), so the week runs only the label
 * reader, hour by hour on a clock of its own, for three weeks, and counts the last one. Policies are put back
 * afterwards.
 */
export async function benchLabelPulls(fleet: Fleet): Promise<Figure[]> {
  const host = fleet.registry.host;
  const hostPattern = `${host}/%`;
  const config = { ...fleet.config, dockerHubHosts: [host], githubApiUrl: "http://127.0.0.1:9" };
  const saved = await fleet.db.$queryRaw<{ id: string; policy: unknown }[]>`
    SELECT id::text, policy FROM services WHERE id IN (
      SELECT r.service_id FROM runs r WHERE r."to" IS NULL AND r.is_main AND r.repository LIKE ${hostPattern} AND (substring(r.repository from '[0-9]+$')::int % 2) = 0)`;
  let clock = Date.now();
  const base = getUpstreamClients(config);
  const deps: CheckDeps = { db: fleet.db, config, get now() { return new Date(clock); }, clients: { ...base, registry: createRegistryClient({ insecureHosts: config.insecureRegistries, now: () => clock }) } };
  const load = loadNow();
  try {
    await fleet.db.$executeRaw`UPDATE services SET policy = COALESCE(policy, '{}'::jsonb) || jsonb_build_object('github', 'bench/' || name) WHERE id = ANY(${saved.map((s) => s.id)}::uuid[])`;
    // One hourly cycle notes which repositories' labels are the release source now.
    await fleet.db.upstreamRepository.updateMany({ where: { host }, data: { dueAt: new Date(0) } });
    for (;;) if ((await runCheckTick(deps, { limit: 500, concurrency: 16, labelLimit: 0 })).leased === 0) break;
    const repos = await fleet.db.upstreamRepository.findMany({ where: { host }, select: { path: true, labelNeeded: true } });
    const needed = new Set(repos.filter((r) => r.labelNeeded).map((r) => r.path));
    let settleReads = 0;
    for (let hour = 0; hour < SETTLE_DAYS * 24; hour++) {
      clock += 3_600_000;
      settleReads += (await readDueSourceLabels(deps, { limit: 50 })).read;
    }
    await fleet.registry.clearLog();
    const perHour: number[] = [];
    for (let hour = 0; hour < MEASURED_DAYS * 24; hour++) {
      clock += 3_600_000;
      perHour.push((await readDueSourceLabels(deps, { limit: 50 })).read);
    }
    await fleet.registry.syncLog();
    const pulls = fleet.registry.log.filter((e) => e.method === "GET" && /\/manifests\//.test(e.path));
    const byNeeded = pulls.filter((e) => needed.has(/^\/v2\/(.+)\/manifests\//.exec(e.path)?.[1] ?? "")).length;
    const other = pulls.length - byNeeded;
    const perWeek = byNeeded / Math.max(1, needed.size) / (MEASURED_DAYS / 7);
    const heads = countRegistryRequests(fleet.registry.log, "HEAD", "manifests");
    return [
      { name: "checks.label_pulls.per_repository_week", value: round2(perWeek), unit: "pulls", target: "≤ 1 (1/7 a day) once labels are known", pass: needed.size > 0 && perWeek <= 1, note: `${byNeeded} pulls for ${needed.size} repositories whose label is the release source in the third of three simulated weeks (${settleReads} reads in the first two), rationed at 10 pulls an hour; ${heads} free HEADs; label reads per hour at most ${Math.max(...perHour)}, ${perHour.filter((n) => n > 0).length} of ${perHour.length} hours with one`, load },
      { name: "checks.label_pulls.source_known_otherwise", value: other, unit: "pulls", target: "0", pass: other === 0 && repos.length > needed.size, note: `${repos.length - needed.size} repositories whose policy names the forge` },
    ];
  } finally {
    for (const s of saved) {
      if (s.policy === null) await fleet.db.$executeRaw`UPDATE services SET policy = NULL WHERE id = ${s.id}::uuid`;
      else await fleet.db.$executeRaw`UPDATE services SET policy = ${JSON.stringify(s.policy)}::jsonb WHERE id = ${s.id}::uuid`;
    }
  }
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
  const deps = { db: fleet.db, config: fleet.config, clients: getUpstreamClients(fleet.config) };
  const cycle = async () => {
    const start = performance.now();
    let checked = 0;
    for (;;) {
      const tick = await runCheckTick({ ...deps, now: new Date() }, { limit: 500, concurrency: 16 });
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
