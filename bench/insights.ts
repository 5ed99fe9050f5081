// Insights under load: p95 of GET /api/v1/updates, /promotions,
// /delivery?window=90d and /matrix with 50 concurrent connections (autocannon)
// against a running server. `seedInsightsHistory` writes the target fleet
// (2,000 services × 4 environments × 3 targets, 90 days of history).
// Standalone: BENCH_URL=… BENCH_TOKEN=… npx tsx bench/insights.ts
import { randomUUID } from "node:crypto";
import { pathToFileURL } from "node:url";
import autocannon from "autocannon";
import { percentile, type Figure } from "@/bench/figures";
import type { Db } from "@/lib/db/client";

const CONNECTIONS = 50;
const TARGET_MS = 200;
export const INSIGHTS_PATHS = ["/api/v1/updates", "/api/v1/promotions", "/api/v1/delivery?window=90d", "/api/v1/matrix"] as const;
/** Measured too, for information: the matrix a page at a time, and the server's floor (a health check: one query, no auth). */
const PAGED_MATRIX = "/api/v1/matrix?limit=100";
const BASELINE = "/api/health";

type Load = { latencies: number[]; non2xx: number; errors: number; bytes: number; seconds: number };

async function load(url: string, token: string, seconds: number): Promise<Load> {
  const latencies: number[] = [];
  let non2xx = 0;
  let bytes = 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      { url, connections: CONNECTIONS, duration: seconds, timeout: 30, headers: { authorization: `Bearer ${token}` } },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
    instance.on("response", (_client, status, resBytes, responseTime) => {
      latencies.push(responseTime);
      bytes += resBytes;
      if (status < 200 || status >= 300) non2xx++;
    });
  });
  return { latencies, non2xx, errors: result.errors + result.timeouts, bytes, seconds };
}

/** One figure per path: the p95 latency under 50 connections, after a few warm-up requests. */
export async function benchInsights(baseUrl: string, token: string, opts: { seconds?: number } = {}): Promise<Figure[]> {
  const seconds = opts.seconds ?? Number(process.env.BENCH_INSIGHTS_SECONDS ?? 10);
  const figures: Figure[] = [];
  for (const path of [BASELINE, ...INSIGHTS_PATHS, PAGED_MATRIX]) {
    const url = baseUrl.replace(/\/+$/, "") + path;
    let firstMs = 0;
    for (let i = 0; i < 3; i++) {
      const start = performance.now();
      const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      if (i === 0) firstMs = performance.now() - start;
      if (!res.ok) throw new Error(`${path} answered ${res.status}`);
    }
    const r = await load(url, token, seconds);
    const p95 = percentile(r.latencies, 95);
    const isInfo = path === PAGED_MATRIX || path === BASELINE;
    const name = path === BASELINE ? "baseline_health" : path.replace(/^\/api\/v1\//, "").replace(/\?.*$/, "") + (path === PAGED_MATRIX ? "_page100" : "");
    figures.push({
      name: `insights.${name}.p95_ms`,
      value: Math.round(p95),
      unit: "ms",
      target: isInfo ? "" : `< ${TARGET_MS} ms`,
      pass: isInfo ? null : r.non2xx === 0 && r.errors === 0 && p95 < TARGET_MS,
      note: `GET ${path}, ${CONNECTIONS} connections for ${seconds} s: ${r.latencies.length} responses (${Math.round(r.latencies.length / seconds)}/s), median ${Math.round(percentile(r.latencies, 50))} ms, ${Math.round(r.bytes / Math.max(1, r.latencies.length) / 1024)} KiB each, first ${Math.round(firstMs)} ms${r.non2xx || r.errors ? `, ${r.non2xx} non-2xx, ${r.errors} errors` : ""}`,
    });
  }
  return figures;
}

// ─── Seeding ───────────────────────────────────────────────────────────────

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** A small deterministic generator, so every run measures the same fleet. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const versionOf = (k: number) => `${1 + Math.floor(k / 40)}.${Math.floor(k / 4) % 10}.${k % 4}`;
const digestOf = (text: string) => `sha256:${Buffer.from(text).toString("hex").padEnd(64, "0").slice(-64)}`;

export type InsightsSeed = { services: number; runs: number; drifts: number; releases: number };

/**
 * Writes straight to the database: `services` services, each released every
 * 4 to 13 days, arriving in dev, test, staging and production (3 targets each)
 * with growing lag over `days` days; production skips most releases of every
 * seventh service; a tenth roll back once. Live drift like detection leaves it,
 * and GitHub releases for every other service.
 */
export async function seedInsightsHistory(db: Db, opts: { workspaceId: string; services?: number; days?: number; now: Date }): Promise<InsightsSeed> {
  const { workspaceId, now } = opts;
  const services = opts.services ?? 2_000;
  const days = opts.days ?? 90;
  const rand = random(42);
  const envs = [
    { name: "dev", position: 10, production: false, lagDays: 0.2 },
    { name: "test", position: 20, production: false, lagDays: 1 },
    { name: "staging", position: 30, production: false, lagDays: 3 },
    { name: "production", position: 40, production: true, lagDays: 7 },
  ];
  const envIds: string[] = [];
  const targets: { id: string; env: number }[] = [];
  for (const [e, env] of envs.entries()) {
    const row = await db.environment.upsert({
      where: { workspaceId_name: { workspaceId, name: env.name } },
      create: { workspaceId, name: env.name, position: env.position, production: env.production },
      update: { position: env.position, production: env.production },
    });
    envIds.push(row.id);
    for (let t = 0; t < 3; t++) {
      const target = await db.target.upsert({
        where: { workspaceId_name: { workspaceId, name: `k8s@${env.name}-${t + 1}` } },
        create: { workspaceId, environmentId: row.id, name: `k8s@${env.name}-${t + 1}`, kind: "kubernetes", lastReportAt: now, lastObservedAt: now },
        update: {},
      });
      targets.push({ id: target.id, env: e });
    }
  }

  const start = now.getTime() - days * DAY;
  const serviceRows: { id: string; workspaceId: string; name: string; team: string; policy?: { github: string }; checkDueAt: Date }[] = [];
  const repoRows: { id: string; key: string; host: string; path: string; ownerWorkspaceId: string; scope: string; checkedBy: "agent"; checkedAt: Date; dueAt: Date; lastDurationMs: number }[] = [];
  const tagRows: { repositoryId: string; name: string; firstSeenAt: Date }[] = [];
  const forgeRows: { id: string; kind: "github"; name: string; fetchedAt: Date }[] = [];
  const releaseRows: { forgeRepositoryId: string; tag: string; name: string; publishedAt: Date; url: string }[] = [];
  const runRows: {
    workspaceId: string; serviceId: string; environmentId: string; targetId: string; container: string; image: string; repository: string;
    tag: string; version: string; digest: string; from: Date; to: Date | null;
  }[] = [];
  const driftRows: { workspaceId: string; serviceId: string; environmentId: string; kind: "env" | "upstream"; state: "open" | "announced"; running: string; expected: string; openedAt: Date }[] = [];
  const suffix = randomUUID().slice(0, 6);

  for (let s = 0; s < services; s++) {
    const id = randomUUID();
    const name = `svc-${String(s).padStart(4, "0")}`;
    const repository = `ghcr.io/acme-${suffix}/${name}`;
    const forge = s % 2 === 0 ? `acme-${suffix}/${name}` : null;
    serviceRows.push({ id, workspaceId, name, team: `team-${s % 20}`, ...(forge ? { policy: { github: forge } } : {}), checkDueAt: new Date(now.getTime() + 365 * DAY) });

    const every = (4 + Math.floor(rand() * 10)) * DAY;
    const releases: { version: string; at: number }[] = [];
    for (let k = 0, at = start - rand() * every; at < now.getTime(); k++, at += every) releases.push({ version: versionOf(k), at });
    const repoId = randomUUID();
    repoRows.push({ id: repoId, key: repository, host: "ghcr.io", path: repository.slice("ghcr.io/".length), ownerWorkspaceId: workspaceId, scope: workspaceId, checkedBy: "agent", checkedAt: now, dueAt: new Date(now.getTime() + HOUR), lastDurationMs: 50 + Math.floor(rand() * 400) });
    for (const r of releases) tagRows.push({ repositoryId: repoId, name: r.version, firstSeenAt: new Date(r.at) });
    tagRows.push({ repositoryId: repoId, name: "latest", firstSeenAt: new Date(start) });
    if (forge) {
      const forgeId = randomUUID();
      forgeRows.push({ id: forgeId, kind: "github", name: forge, fetchedAt: now });
      for (const r of releases) releaseRows.push({ forgeRepositoryId: forgeId, tag: `v${r.version}`, name: r.version, publishedAt: new Date(r.at), url: `https://github.com/${forge}/releases/tag/v${r.version}` });
    }

    const isSlowProd = s % 7 === 0;
    const rollsBack = s % 10 === 3;
    let prodRunning: string | undefined;
    for (const target of targets) {
      const env = envs[target.env]!;
      const jitter = rand() * 6 * HOUR;
      let open: (typeof runRows)[number] | null = null;
      const push = (version: string, since: number) => {
        if (open !== null) open.to = new Date(since);
        const image = `${repository}:${version}`;
        open = { workspaceId, serviceId: id, environmentId: envIds[target.env]!, targetId: target.id, container: "app", image, repository, tag: version, version, digest: digestOf(image), from: new Date(since), to: null };
        runRows.push(open);
      };
      releases.forEach((r, k) => {
        if (isSlowProd && env.production && k % 4 !== 0) return;
        const since = r.at + env.lagDays * DAY + jitter;
        if (since >= now.getTime()) return;
        push(r.version, since);
        // A rollback to the previous version for an hour, then forward again.
        if (rollsBack && k === releases.length - 4 && k > 0) {
          push(releases[k - 1]!.version, since + HOUR);
          push(r.version, since + 2 * HOUR);
        }
      });
      const current = open as (typeof runRows)[number] | null;
      if (env.production && current !== null) prodRunning ??= current.version;
    }
    const newest = releases.at(-1)!.version;
    if (prodRunning && prodRunning !== newest) {
      driftRows.push({ workspaceId, serviceId: id, environmentId: envIds[3]!, kind: "upstream", state: "announced", running: prodRunning, expected: newest, openedAt: new Date(now.getTime() - 7 * DAY) });
    }
    if (s % 4 === 1 && prodRunning) {
      driftRows.push({ workspaceId, serviceId: id, environmentId: envIds[3]!, kind: "env", state: "open", running: prodRunning, expected: newest, openedAt: new Date(now.getTime() - 2 * DAY) });
    }
  }

  const chunks = async <T>(rows: T[], write: (part: T[]) => Promise<unknown>) => {
    for (let i = 0; i < rows.length; i += 5_000) await write(rows.slice(i, i + 5_000));
  };
  await db.service.createMany({ data: serviceRows });
  await db.upstreamRepository.createMany({ data: repoRows });
  await chunks(tagRows, (data) => db.upstreamTag.createMany({ data, skipDuplicates: true }));
  await db.forgeRepository.createMany({ data: forgeRows });
  await chunks(releaseRows, (data) => db.release.createMany({ data }));
  await chunks(runRows, (data) => db.run.createMany({ data }));
  await chunks(driftRows, (data) => db.drift.createMany({ data }));
  await db.$executeRawUnsafe("ANALYZE");
  return { services: serviceRows.length, runs: runRows.length, drifts: driftRows.length, releases: releaseRows.length };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const url = process.env.BENCH_URL;
  const token = process.env.BENCH_TOKEN;
  if (!url || !token) {
    console.error("set BENCH_URL (a running driftwatch) and BENCH_TOKEN (an API token of a seeded workspace)");
    process.exit(2);
  }
  for (const f of await benchInsights(url, token)) {
    const verdict = f.pass === null ? "info" : f.pass ? "PASS" : "FAIL";
    console.log(`${verdict.padEnd(4)} ${f.name} = ${f.value} ${f.unit}${f.target ? ` (target ${f.target})` : ""}${f.note ? `  ${f.note}` : ""}`);
  }
}
