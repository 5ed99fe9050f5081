// The promotion gate's Kubernetes webhook on the seeded fleet: production's
// gate is set to enforce with a day of soak, and Deployment admission reviews
// (Kubernetes' own JSON shape) for services of the fleet, each running what
// staging runs, arrive from 10 concurrent clients, as an API server does during
// a wave of rollouts. Kubernetes waits at most 10 s and every deploy waits for
// the answer: the target is p99 under 50 ms. Every answer must be a 200 review.
import http from "node:http";
import { admissionReview, workloadObject } from "@/tests/support/admission-review";
import { loadNow, percentile, type Figure } from "./figures";
import { signIn } from "./matrix";

const CLIENTS = 10;
const P99_TARGET_MS = 50;
const WARM_SECONDS = 2;

/**
 * One review on a kept-alive connection, as the API server sends them, with Node's own HTTP client:
 * fetch costs this process more CPU a request, taken from the cores the measured server shares.
 */
function postReview(url: string, agent: http.Agent, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

type Matrix = { services: { name: string; upstream: { repository: string | null }; cells: { environment: string; tag: string | null }[] }[] };

export async function benchAdmission(baseUrl: string, ws: { name: string; token: string }, opts: { requests: number; log: (l: string) => void }): Promise<Figure[]> {
  const cookie = await signIn(baseUrl, `${ws.name}@bench.test`, "bench-password");
  const session = { cookie, origin: baseUrl, "content-type": "application/json" };
  const set = await fetch(`${baseUrl}/api/v1/environments/production`, { method: "PATCH", headers: session, body: JSON.stringify({ gate: { mode: "enforce", soak: "24h" } }) });
  if (set.status !== 200) throw new Error(`setting production's gate answered ${set.status}: ${(await set.text()).slice(0, 300)}`);
  // Changing an environment re-evaluates drift: a read waits for that, so it does not run inside the measurement.
  await (await fetch(`${baseUrl}/api/v1/drifts?limit=1`, { headers: { authorization: `Bearer ${ws.token}` } })).arrayBuffer();
  const address = await fetch(`${baseUrl}/api/v1/environments/production/admission`, { headers: session });
  if (address.status !== 200) throw new Error(`GET admission answered ${address.status}`);
  const { url } = (await address.json()) as { url: string };

  const matrix = (await (await fetch(`${baseUrl}/api/v1/matrix`, { headers: { authorization: `Bearer ${ws.token}` } })).json()) as Matrix;
  const images = matrix.services.flatMap((s) => {
    const tag = s.cells.find((c) => c.environment === "staging")?.tag;
    return s.upstream.repository && tag ? [{ service: s.name, image: `${s.upstream.repository}:${tag}` }] : [];
  });
  if (images.length === 0) throw new Error("no service runs in staging");
  const bodies = images.map(({ service, image }) => JSON.stringify(admissionReview(workloadObject("Deployment", service, "shop", {
    labels: { "app.kubernetes.io/name": service }, containers: [{ name: service, image }],
  }))));

  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  const latencies: number[] = [];
  let failed = 0, refused = 0, allowed = 0;
  let next = 0;
  const send = async (i: number) => {
    const start = performance.now();
    const res = await postReview(url, agent, bodies[i % bodies.length]!).catch(() => ({ status: 0, text: "" }));
    let body: { response?: { allowed: boolean } } | null = null;
    try {
      body = JSON.parse(res.text) as { response?: { allowed: boolean } };
    } catch {
      body = null;
    }
    latencies.push(performance.now() - start);
    if (res.status !== 200 || !body?.response) failed++;
    else if (body.response.allowed) allowed++;
    else refused++;
  };
  // Unmeasured warm-up, as the API figures: the same load for WARM_SECONDS compiles the route and fills
  // the pools; a few requests one at a time left the first answers under load to set the p99.
  const warmUntil = performance.now() + WARM_SECONDS * 1000;
  let warm = 0;
  await Promise.all(Array.from({ length: CLIENTS }, async () => {
    while (performance.now() < warmUntil) await send(warm++);
  }));
  latencies.length = 0;
  failed = refused = allowed = 0;
  const load = loadNow();
  const started = performance.now();
  await Promise.all(Array.from({ length: CLIENTS }, async () => {
    while (next < opts.requests) await send(next++);
  }));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  const [p50, p95, p99] = [50, 95, 99].map((q) => Math.round(percentile(latencies, q) * 10) / 10);
  opts.log(`admission: p50 ${p50} ms, p95 ${p95} ms, p99 ${p99} ms, ${Math.round(latencies.length / seconds)} reviews/s; ${allowed} allowed, ${refused} refused, ${failed} failed`);
  const note = `${latencies.length} Deployment reviews of ${images.length} services (what staging runs) from ${CLIENTS} clients in ${seconds.toFixed(1)} s after ${WARM_SECONDS} s of unmeasured load, production enforcing a 24h soak: ${allowed} allowed, ${refused} refused${failed ? `; FAILED: ${failed}` : ""}`;
  return [
    { name: "admission.review.p99_ms", value: p99!, unit: "ms", target: `< ${P99_TARGET_MS}`, pass: p99! < P99_TARGET_MS && failed === 0 && latencies.length > 0, note, load, scale: "lower" },
    { name: "admission.review.p50_ms", value: p50!, unit: "ms", target: "", pass: null, load, scale: "lower" },
    { name: "admission.review.p95_ms", value: p95!, unit: "ms", target: "", pass: null, load, scale: "lower" },
    { name: "admission.reviews_per_second", value: Math.round(latencies.length / seconds), unit: "reviews/s", target: "", pass: null, load, scale: "higher" },
  ];
}
