// The benchmark's fleet, seeded only through public paths: upstream images
// pushed to the loopback registry, environments created through the API, and
// 90 days of history sent as agent reports (POST /api/v1/agent/report with an
// agent key), in time order per target, so every row comes from a report.
//
// Fleet shape for N services:
// - 4 environments (dev → test → staging → production) and, in each, every
//   service runs on 3 targets. A report is a whole target's state and a body
//   is at most 1 MiB, so a target carries at most 1,000 services: services are
//   split into G = ceil(N / 1,000) groups, and each environment has 3 × G
//   targets `k8s@<env>-g<group>-<1..3>` (N = 2,000: 24 targets of 1,000 workloads).
// - Service s runs `<registry>/bench/app-<s mod R>`, R = min(N, 1,000)
//   repositories, each with 30 versions (1.0.0 … 1.7.1) and `latest` pushed once
//   (every version its own manifest digest) and cached between runs.
// - Each service releases every 3.5 to 7 days; a release reaches dev after
//   6 h, test after 1 day, staging after 2, production after 3 (each target a
//   few hours apart); every 7th service deploys only every 3rd release to production.
// - Every target reports every 3 days over 90 days, and once more at the end:
//   shorter than the gap between two deploys, so every deploy is in history
//   (`--quick`: every 6 days, which misses a few; the expected history is
//   worked out from the plan either way and checked after seeding).
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { TestRegistry } from "@/tests/support/registry";
import { loadNow } from "./figures";
import { pool, type Fleet } from "./fleet";

const DAY = 86_400_000;
const HOUR = 3_600_000;
export const VERSIONS = Array.from({ length: 30 }, (_, k) => `${1 + Math.floor(k / 40)}.${Math.floor(k / 4) % 10}.${k % 4}`);
export const ENVIRONMENTS = [
  { name: "dev", position: 10, production: false, lagDays: 0.25 },
  { name: "test", position: 20, production: false, lagDays: 1 },
  { name: "staging", position: 30, production: false, lagDays: 2 },
  { name: "production", position: 40, production: true, lagDays: 3 },
] as const;
export const TARGETS_PER_ENVIRONMENT = 3;
export const MAX_WORKLOADS_PER_REPORT = 1_000;
export const MAX_REPOSITORIES = 1_000;
/** Days between two reports of one target: below the shortest gap between deploys, so none is missed. */
export const DEFAULT_TICK_DAYS = 3;
const MIB = 1024 * 1024;

export const repositoryCount = (services: number) => Math.min(services, MAX_REPOSITORIES);
export const repoName = (r: number) => `bench/app-${String(r).padStart(4, "0")}`;

/** A small deterministic generator, so every run seeds the same fleet. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

// ─── Registry: 1,000 repositories, pushed once and cached ───────────────────

/** Digest of every tag of every benchmark repository: `digests[r][tag]`. */
export type RepoDigests = Record<string, string>[];

const INDEX_VERSION = 1;
export const defaultRegistryCache = () =>
  process.env.BENCH_REGISTRY_CACHE ?? path.resolve(import.meta.dirname, "..", "node_modules", ".cache", "driftwatch-bench", "registry");

/**
 * Pushes `count` repositories (each version a distinct manifest, via an
 * annotation on one pushed image) to the registry, skipping those the cache
 * index says are already in its storage. Returns every tag's digest.
 */
export async function prepareRepositories(registry: TestRegistry, cacheDir: string | null, count: number, log: (l: string) => void): Promise<RepoDigests> {
  const indexPath = cacheDir ? path.join(cacheDir, "index.json") : null;
  let index: { version: number; repos: Record<string, Record<string, string>> } = { version: INDEX_VERSION, repos: {} };
  if (indexPath && existsSync(indexPath) && existsSync(path.join(cacheDir!, "storage"))) {
    const parsed = JSON.parse(await readFile(indexPath, "utf8")) as typeof index;
    if (parsed.version === INDEX_VERSION) index = parsed;
  }
  const missing = Array.from({ length: count }, (_, r) => r).filter((r) => !index.repos[repoName(r)]);
  if (missing.length < count) {
    // The cache is only trusted after a spot check against the registry itself.
    for (const r of [0, Math.floor((count - 1) / 2), count - 1]) {
      const name = repoName(r);
      const want = index.repos[name]?.[VERSIONS.at(-1)!];
      if (!want) continue;
      const res = await fetch(`${registry.url}/v2/${name}/manifests/${VERSIONS.at(-1)}`, { method: "HEAD", headers: { accept: "application/vnd.oci.image.manifest.v1+json" } });
      if (res.headers.get("docker-content-digest") !== want) {
        log(`registry cache does not match its index (${name}): pushing everything again`);
        index.repos = {};
        missing.splice(0, missing.length, ...Array.from({ length: count }, (_, r) => r));
        break;
      }
    }
  }
  if (missing.length) {
    const started = performance.now();
    let done = 0;
    const progress = setInterval(() => log(`pushing repositories: ${done}/${missing.length}`), 5_000);
    try {
      await pool(missing, 12, async (r) => {
        index.repos[repoName(r)] = await pushRepository(registry, repoName(r));
        done++;
      });
    } finally {
      clearInterval(progress);
    }
    log(`pushed ${missing.length} repositories × ${VERSIONS.length + 1} tags in ${((performance.now() - started) / 1000).toFixed(1)} s${cacheDir ? ` (cached in ${cacheDir})` : ""}`);
    if (indexPath) {
      await mkdir(cacheDir!, { recursive: true });
      await writeFile(indexPath, JSON.stringify(index));
    }
  } else {
    log(`${count} repositories from the registry cache (${cacheDir})`);
  }
  return Array.from({ length: count }, (_, r) => index.repos[repoName(r)]!);
}

const OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json";

async function pushRepository(registry: TestRegistry, name: string): Promise<Record<string, string>> {
  await registry.pushImage(name, VERSIONS[0]!);
  const res = await fetch(`${registry.url}/v2/${name}/manifests/${VERSIONS[0]}`, { headers: { accept: OCI_MANIFEST } });
  if (res.status !== 200) throw new Error(`manifest ${name}:${VERSIONS[0]} answered ${res.status}`);
  const base = (await res.json()) as Record<string, unknown>;
  const digests: Record<string, string> = {};
  const put = async (tag: string, bytes: Buffer) => {
    const r = await fetch(`${registry.url}/v2/${name}/manifests/${tag}`, { method: "PUT", body: new Uint8Array(bytes), headers: { "content-type": OCI_MANIFEST } });
    if (r.status !== 201) throw new Error(`manifest PUT ${name}:${tag} answered ${r.status}: ${await r.text()}`);
    await r.body?.cancel();
    digests[tag] = `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
  };
  let newest = Buffer.alloc(0);
  for (const version of VERSIONS) {
    newest = Buffer.from(JSON.stringify({ ...base, annotations: { "org.opencontainers.image.version": version } }));
    await put(version, newest);
  }
  await put("latest", newest);
  return digests;
}

// ─── History plan ───────────────────────────────────────────────────────────

type Target = { name: string; env: number; group: number; slot: number };
export type FleetPlan = {
  services: number;
  groups: number;
  repositories: number;
  targets: Target[];
  ticks: number[];
  start: number;
  end: number;
  /** deploys[s][env][slot]: deploy times (ms) and version index, in time order. */
  deploys: { at: number; k: number }[][][][];
};

export function planFleet(services: number, end: number, opts: { days?: number; tickDays?: number } = {}): FleetPlan {
  const days = opts.days ?? 90;
  const tickDays = opts.tickDays ?? DEFAULT_TICK_DAYS;
  const rand = random(42);
  const start = end - days * DAY;
  const groups = Math.ceil(services / MAX_WORKLOADS_PER_REPORT);
  const targets: Target[] = [];
  ENVIRONMENTS.forEach((env, e) => {
    for (let g = 0; g < groups; g++) for (let t = 0; t < TARGETS_PER_ENVIRONMENT; t++) targets.push({ name: `k8s@${env.name}-g${g}-${t + 1}`, env: e, group: g, slot: t });
  });
  const deploys: FleetPlan["deploys"] = [];
  for (let s = 0; s < services; s++) {
    const every = (3.5 + rand() * 3.5) * DAY;
    const releases: { at: number; k: number }[] = [];
    for (let k = 0, at = start - rand() * every; at < end && k < VERSIONS.length; k++, at += every) releases.push({ at, k });
    const slowProd = s % 7 === 0;
    deploys.push(
      ENVIRONMENTS.map((env) =>
        Array.from({ length: TARGETS_PER_ENVIRONMENT }, () => {
          const jitter = rand() * 6 * HOUR;
          return releases
            .filter((_, i) => !(slowProd && env.production && i % 3 !== 0))
            .map((r) => ({ at: Math.max(start, r.at + env.lagDays * DAY + jitter), k: r.k }))
            .filter((d) => d.at < end);
        }),
      ),
    );
  }
  const ticks: number[] = [];
  for (let at = start; at < end; at += tickDays * DAY) ticks.push(at);
  ticks.push(end);
  return { services, groups, repositories: repositoryCount(services), targets, ticks, start, end, deploys };
}

function reportBody(plan: FleetPlan, target: Target, at: number, registryHost: string, digests: RepoDigests): string {
  const workloads = [];
  for (let s = target.group; s < plan.services; s += plan.groups) {
    let current: { at: number; k: number } | undefined;
    for (const d of plan.deploys[s]![target.env]![target.slot]!) if (d.at <= at) current = d;
    if (!current) continue;
    const r = s % plan.repositories;
    const version = VERSIONS[current.k]!;
    workloads.push({
      service: `svc-${String(s).padStart(5, "0")}`, container: "app", main: true, image: `${registryHost}/${repoName(r)}:${version}`,
      digest: digests[r]![version], platform_digest: null, platform: "linux/amd64", since: new Date(current.at).toISOString(),
    });
  }
  return JSON.stringify({ environment: ENVIRONMENTS[target.env]!.name, target: { name: target.name, kind: "kubernetes" }, observed_at: new Date(at).toISOString(), workloads });
}

/**
 * History the reports must leave: one row per deploy a report showed (every
 * deploy when reports come more often than deploys), one open row per
 * service and target. Worked out from the plan, not from the server.
 */
export function expectedHistory(plan: FleetPlan): { rows: number; open: number; deploys: number } {
  let rows = 0;
  let open = 0;
  let deploys = 0;
  for (const perEnv of plan.deploys) for (const perTarget of perEnv) for (const list of perTarget) {
    deploys += list.length;
    const seen = new Set<number>();
    let i = -1;
    for (const at of plan.ticks) {
      while (i + 1 < list.length && list[i + 1]!.at <= at) i++;
      if (i >= 0) seen.add(i);
    }
    rows += seen.size;
    if (seen.size) open++;
  }
  return { rows, open, deploys };
}

// ─── Sending ────────────────────────────────────────────────────────────────

export type SeedStats = {
  reports: number;
  retries: number;
  seconds: number;
  maxBodyBytes: number;
  workloads: number;
  expected: { rows: number; open: number; deploys: number };
  actual: { rows: number; open: number };
  targets: number;
  repositories: number;
};

/** POSTs one report, retrying 503 (overload) as an agent does; anything but 202 otherwise throws. */
async function sendReport(baseUrl: string, key: string, body: string): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(`${baseUrl}/api/v1/agent/report`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body });
    const text = await res.text();
    if (res.status === 202) return attempt;
    if (res.status !== 503 || attempt >= 20) throw new Error(`report answered ${res.status}: ${text.slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, Math.min(5_000, 250 * 2 ** attempt)));
  }
}

/** Creates the environments through the API (member token), in pipeline order. */
export async function createEnvironments(baseUrl: string, token: string): Promise<void> {
  for (const env of ENVIRONMENTS) {
    const res = await fetch(`${baseUrl}/api/v1/environments`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: env.name, position: env.position, production: env.production }),
    });
    const text = await res.text();
    if (res.status !== 201 && res.status !== 200) throw new Error(`POST /api/v1/environments answered ${res.status}: ${text.slice(0, 300)}`);
  }
}

/**
 * Sends the plan's reports: each target's in time order, `concurrency`
 * targets at once. Progress every 5 s. Verifies history against the plan.
 */
export async function seedHistory(
  fleet: Fleet,
  ws: { id: string; agentKey: string; token: string },
  plan: FleetPlan,
  digests: RepoDigests,
  opts: { concurrency: number; log: (l: string) => void },
): Promise<SeedStats> {
  await createEnvironments(fleet.baseUrl, ws.token);
  const total = plan.targets.length * plan.ticks.length;
  let sent = 0;
  let retries = 0;
  let maxBodyBytes = 0;
  let workloads = 0;
  const started = performance.now();
  const progress = setInterval(() => {
    const s = (performance.now() - started) / 1000;
    const rate = sent / s;
    opts.log(`reports ${sent}/${total} (${rate.toFixed(1)}/s, ${retries} retried, ETA ${Math.round((total - sent) / Math.max(rate, 0.01))} s, load ${loadNow()})`);
  }, 5_000);
  try {
    await pool(plan.targets, opts.concurrency, async (target) => {
      for (const at of plan.ticks) {
        const body = reportBody(plan, target, at, fleet.registry.host, digests);
        const bytes = Buffer.byteLength(body);
        if (bytes > MIB) throw new Error(`a report of ${bytes} bytes would exceed the 1 MiB body limit; lower MAX_WORKLOADS_PER_REPORT`);
        maxBodyBytes = Math.max(maxBodyBytes, bytes);
        const retried = await sendReport(fleet.baseUrl, ws.agentKey, body); // not `retries += await …`: that reads `retries` before awaiting
        retries += retried;
        if (at === plan.ticks.at(-1)) workloads += (JSON.parse(body) as { workloads: unknown[] }).workloads.length;
        sent++;
      }
    });
  } finally {
    clearInterval(progress);
  }
  const seconds = (performance.now() - started) / 1000;
  // Reading back to verify is fine: nothing is written here.
  const rows = await fleet.db.run.count({ where: { workspaceId: ws.id } });
  const open = await fleet.db.run.count({ where: { workspaceId: ws.id, to: null } });
  return { reports: sent, retries, seconds, maxBodyBytes, workloads, expected: expectedHistory(plan), actual: { rows, open }, targets: plan.targets.length, repositories: plan.repositories };
}
