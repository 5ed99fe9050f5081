// API latency under load on the seeded fleet, from worker threads of the
// benchmark's process (bench/load-worker.mjs; the server is its own process): 50 concurrent clients
// on each read endpoint with a latency target, then GET /api/v1/drifts held at
// 500 requests a second. Clients accept gzip, as real ones do. Every
// response's status is counted: anything but 2xx, a socket error or a timeout
// fails the figure.
import { Worker } from "node:worker_threads";
import { loadNow, percentile, type Figure } from "./figures";

export const API_PATHS = ["/api/v1/matrix", "/api/v1/updates", "/api/v1/drifts", "/api/v1/promotions", "/api/v1/delivery?window=90d"] as const;
/** Target: p95 < 150 ms at 2,000 services for every read endpoint. */
const P95_TARGET_MS = 150;
const CONNECTIONS = 50;
/**
 * The unmeasured load before each measured run: one request per connection leaves the JIT and the
 * sockets cold, and the first answers under load would set the p95.
 */
const WARM_SECONDS = 2;

export type LoadResult = {
  latencies: number[]; ok: number; non2xx: number; errors: number; timeouts: number; bytes: number; seconds: number; statuses: Record<string, number>;
  /** Requests sent that got neither a response nor an error (a duration-bounded run cut them off). */
  unfinished: number;
};

/** Load-generator threads: receiving half a megabyte per answer for 50 clients is work of its own. */
const LOAD_THREADS = 2;

type WorkerResult = { latencies: number[]; ok: number; non2xx: number; bytes: number; statuses: Record<string, number>; seconds: number; errors: number; timeouts: number; sent: number };

/**
 * Load on one URL over keep-alive connections, split across
 * LOAD_THREADS worker threads (bench/load-worker.mjs). `amount`: exactly that
 * many requests, every one answered or timed out (30 s), so slow responses
 * are never dropped from the percentiles; else `seconds`. `rate` caps
 * requests a second over all connections.
 */
export async function loadUrl(url: string, token: string, opts: { amount?: number; seconds?: number; connections?: number; rate?: number }): Promise<LoadResult> {
  const connections = opts.connections ?? CONNECTIONS;
  const threads = Math.max(1, Math.min(LOAD_THREADS, connections));
  const share = (total: number, i: number) => Math.floor(total / threads) + (i < total % threads ? 1 : 0);
  const started = performance.now();
  const parts = await Promise.all(
    Array.from({ length: threads }, (_, i) =>
      new Promise<WorkerResult>((resolve, reject) => {
        const worker = new Worker(new URL("./load-worker.mjs", import.meta.url), {
          workerData: {
            url, token, connections: share(connections, i), seconds: opts.seconds,
            ...(opts.amount ? { amount: share(opts.amount, i) } : {}),
            ...(opts.rate ? { rate: opts.rate / threads } : {}),
          },
        });
        worker.once("message", (m: WorkerResult) => resolve(m));
        worker.once("error", reject);
        worker.once("exit", (code) => (code === 0 ? undefined : reject(new Error(`load worker exited with ${code}`))));
      }),
    ),
  );
  const statuses: Record<string, number> = {};
  for (const p of parts) for (const [k, v] of Object.entries(p.statuses)) statuses[k] = (statuses[k] ?? 0) + v;
  const sum = (f: (p: WorkerResult) => number) => parts.reduce((a, p) => a + f(p), 0);
  const latencies = parts.flatMap((p) => p.latencies);
  const errors = sum((p) => p.errors);
  const expected = opts.amount ?? sum((p) => p.sent);
  const unfinished = Math.max(0, expected - latencies.length - errors);
  return {
    latencies, ok: sum((p) => p.ok), non2xx: sum((p) => p.non2xx), errors, timeouts: sum((p) => p.timeouts), bytes: sum((p) => p.bytes),
    // From the threads' own clocks, which start with their first request: starting a thread is not the server's time.
    seconds: Math.min((performance.now() - started) / 1000, Math.max(...parts.map((p) => p.seconds))), statuses, unfinished,
  };
}

/** A few requests one at a time, each checked for 200: the endpoint works, caches and JIT are warm. */
async function warmUp(url: string, token: string): Promise<{ firstMs: number; bytes: number }> {
  let firstMs = 0;
  let bytes = 0;
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    const body = await res.arrayBuffer();
    if (i === 0) firstMs = performance.now() - start;
    bytes = body.byteLength;
    if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${Buffer.from(body).toString("utf8").slice(0, 300)}`);
  }
  return { firstMs, bytes };
}

const failures = (r: LoadResult) => r.non2xx + r.errors + r.unfinished;
const failureNote = (r: LoadResult) =>
  failures(r) ? `; FAILED REQUESTS: ${r.non2xx} non-2xx ${JSON.stringify(r.statuses)}, ${r.errors} errors (${r.timeouts} timeouts), ${r.unfinished} unanswered` : "";

/**
 * Per endpoint: 3 checked requests one at a time, WARM_SECONDS of unmeasured
 * load from 50 clients (which also estimates the rate), then the measured
 * run: about `seconds` worth of requests at that rate, at least
 * `minRequests`, every one answered. Then /drifts at 500 requests a second.
 */
export async function benchApi(baseUrl: string, token: string, opts: { seconds: number; minRequests: number; sustainedSeconds: number; log: (l: string) => void }): Promise<Figure[]> {
  const figures: Figure[] = [];
  let driftsMax: { rps: number; p99: number } | null = null;
  for (const p of API_PATHS) {
    const url = baseUrl + p;
    const warm = await warmUp(url, token);
    const warmRun = await loadUrl(url, token, { seconds: WARM_SECONDS });
    const estimate = warmRun.ok / warmRun.seconds;
    const amount = Math.min(50_000, Math.max(opts.minRequests, Math.round(estimate * opts.seconds)));
    const load = loadNow();
    const r = await loadUrl(url, token, { amount });
    const name = `api.${p.replace(/^\/api\/v1\//, "").replace(/\?.*$/, "")}`;
    const [p50, p95, p99] = [50, 95, 99].map((q) => Math.round(percentile(r.latencies, q)));
    opts.log(`GET ${p}: p50 ${p50} ms, p95 ${p95} ms, p99 ${p99} ms, ${Math.round(r.ok / r.seconds)} req/s, ${Math.round(warm.bytes / 1024)} KiB per response${failureNote(r)}`);
    if (p === "/api/v1/drifts") driftsMax = { rps: r.ok / r.seconds, p99: p99! };
    const wire = r.latencies.length ? r.bytes / r.latencies.length : 0;
    const note = `${CONNECTIONS} connections accepting gzip, ${amount} requests in ${r.seconds.toFixed(1)} s: ${r.latencies.length} responses (${Math.round(r.ok / r.seconds)}/s 2xx), ${Math.round(warm.bytes / 1024)} KiB of JSON each (${Math.round(wire / 1024)} KiB sent), first request ${Math.round(warm.firstMs)} ms, after ${WARM_SECONDS} s of unmeasured load${failureNote(r)}`;
    figures.push(
      { name: `${name}.p50_ms`, value: p50!, unit: "ms", target: "", pass: null, load, scale: "lower" },
      { name: `${name}.p95_ms`, value: p95!, unit: "ms", target: `< ${P95_TARGET_MS} (50 clients)`, pass: p95! < P95_TARGET_MS && failures(r) === 0 && r.ok > 0, note, load, scale: "lower" },
      { name: `${name}.p99_ms`, value: p99!, unit: "ms", target: "", pass: null, load, scale: "lower" },
      { name: `${name}.max_rps`, value: Math.round(r.ok / r.seconds), unit: "req/s", target: "", pass: null, note: "2xx responses a second with 50 clients, unthrottled", load, scale: "higher" },
    );
  }

  // Sustained: 500 requests a second offered over 50 connections; what was served, and its p99.
  // Not attempted when 50 unthrottled clients got under half that: it would queue for minutes.
  const load = loadNow();
  if (driftsMax !== null && driftsMax.rps < 250) {
    const why = `not attempted: unthrottled, 50 clients got only ${driftsMax.rps.toFixed(1)} req/s from /drifts (the value shown is that, and its p99)`;
    opts.log(`sustained /drifts ${why}`);
    figures.push(
      { name: "api.drifts.sustained_rps", value: Math.round(driftsMax.rps * 10) / 10, unit: "req/s", target: "≥ 500", pass: false, note: why, load, scale: "higher" },
      { name: "api.drifts.sustained_p99_ms", value: driftsMax.p99, unit: "ms", target: "< 100 at 500 req/s", pass: false, note: why, load, scale: "lower" },
    );
    return figures;
  }
  const url = baseUrl + "/api/v1/drifts";
  const r = await loadUrl(url, token, { amount: 500 * opts.sustainedSeconds, rate: 500 });
  const rps = r.ok / r.seconds;
  const p99 = Math.round(percentile(r.latencies, 99));
  opts.log(`GET /api/v1/drifts at 500/s offered: ${rps.toFixed(0)} req/s served, p99 ${p99} ms${failureNote(r)}`);
  figures.push(
    { name: "api.drifts.sustained_rps", value: Math.round(rps), unit: "req/s", target: "≥ 500 (≥ 490: ramp-up)", pass: rps >= 490 && failures(r) === 0, note: `${500 * opts.sustainedSeconds} requests offered at 500/s over ${CONNECTIONS} connections, served in ${r.seconds.toFixed(1)} s${failureNote(r)}`, load, scale: "higher" },
    { name: "api.drifts.sustained_p99_ms", value: p99, unit: "ms", target: "< 100 at 500 req/s", pass: p99 < 100 && failures(r) === 0 && r.ok > 0, note: `p50 ${Math.round(percentile(r.latencies, 50))} ms, p95 ${Math.round(percentile(r.latencies, 95))} ms${driftsMax ? `; 500/s is ${Math.round((500 / driftsMax.rps) * 100)} % of the ${Math.round(driftsMax.rps)}/s 50 unthrottled clients got (how busy it keeps the cores)` : ""}`, load, scale: "lower" },
  );
  return figures;
}
