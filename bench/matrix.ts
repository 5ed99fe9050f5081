// The matrix page at 2,000 services: server render time (p50/p95 of the
// whole GET /, signed in, through `driftwatch start`) and the bytes of HTML
// sent for one page of it, for the default view and the heaviest sort.
// Run alone with `npx tsx bench/matrix.ts`, or as a section of bench/run.ts.
import { pathToFileURL } from "node:url";
import { loadNow, percentile, type Figure } from "@/bench/figures";
import type { Fleet } from "./fleet";
import { seedMatrixWorkspace } from "./matrix-seed";

const SERVICES = Number(process.env.BENCH_MATRIX_SERVICES ?? 2_000);
const RUNS = 40;

/** Signs in through Auth.js's credentials flow and returns the session cookie header. */
export async function signIn(baseUrl: string, email: string, password: string): Promise<string> {
  const csrf = await fetch(`${baseUrl}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const jar = csrf.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const res = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar },
    body: new URLSearchParams({ email, password, csrfToken, callbackUrl: `${baseUrl}/` }),
  });
  const session = res.headers.getSetCookie().map((c) => c.split(";")[0]).find((c) => c?.includes("session-token"));
  if (!session) throw new Error(`sign-in failed (${res.status})`);
  return `${jar}; ${session}`;
}

export async function timeGet(url: string, cookie: string): Promise<{ ms: number; bytes: number }> {
  const start = performance.now();
  const res = await fetch(url, { headers: { cookie } });
  const body = await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  return { ms: performance.now() - start, bytes: body.byteLength };
}

/**
 * The matrix page of a fleet seeded elsewhere (bench/seed.ts): p95 of the
 * whole signed-in GET /, sequential, after warm-up; the attention sort for
 * information. Target: p95 < 400 ms at 2,000 services.
 */
export async function benchMatrixPage(baseUrl: string, cookie: string, runs: number): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const [label, path] of [["default", "/"], ["attention", "/?sort=attention"]] as const) {
    for (let i = 0; i < 3; i++) await timeGet(baseUrl + path, cookie);
    const load = loadNow();
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < runs; i++) {
      const r = await timeGet(baseUrl + path, cookie);
      times.push(r.ms);
      bytes = Math.max(bytes, r.bytes);
    }
    const p95 = Math.round(percentile(times, 95));
    const note = `p50 ${Math.round(percentile(times, 50))} ms, ${runs} signed-in renders one at a time after 3 warm-up, ${Math.round(bytes / 1024)} KiB of HTML`;
    figures.push(
      label === "default"
        ? { name: "page.matrix.p95_ms", value: p95, unit: "ms", target: "< 400", pass: p95 < 400, note, load, scale: "lower" }
        : { name: "page.matrix_sorted_by_attention.p95_ms", value: p95, unit: "ms", target: "", pass: null, note, load, scale: "lower" },
    );
  }
  return figures;
}

export async function benchMatrix(fleet: Fleet, log: (line: string) => void): Promise<Figure[]> {
  const name = `bench-matrix-${Date.now().toString(36)}`;
  const ws = await fleet.workspace(name);
  const t = performance.now();
  const seeded = await seedMatrixWorkspace(fleet.db, { workspaceId: ws.id, services: SERVICES, now: new Date() });
  log(`seeded ${seeded.services} services, ${seeded.runs} runs, ${seeded.drifts} drifts in ${Math.round(performance.now() - t)} ms`);
  const cookie = await signIn(fleet.baseUrl, `${name}@bench.test`, "bench-password");

  const figures: Figure[] = [];
  for (const [label, path] of [["default", "/"], ["attention", "/?sort=attention"]] as const) {
    for (let i = 0; i < 3; i++) await timeGet(fleet.baseUrl + path, cookie);
    const runs: number[] = [];
    let bytes = 0;
    for (let i = 0; i < RUNS; i++) {
      const r = await timeGet(fleet.baseUrl + path, cookie);
      runs.push(r.ms);
      bytes = Math.max(bytes, r.bytes);
    }
    const p95 = Math.round(percentile(runs, 95));
    const kb = Math.round(bytes / 1024);
    if (label === "default") {
      figures.push({ name: `matrix.page_${SERVICES}_services.p95_ms`, value: p95, unit: "ms", target: "< 500", pass: p95 < 500, note: `p50 ${Math.round(percentile(runs, 50))} ms` });
      figures.push({ name: `matrix.page_${SERVICES}_services.html_kb`, value: kb, unit: "KB", target: "< 300", pass: bytes < 300 * 1024 });
    } else {
      figures.push({ name: `matrix.page_${SERVICES}_services_sorted_by_attention.p95_ms`, value: p95, unit: "ms", target: "", pass: null, note: "every matching row is read to sort" });
      figures.push({ name: `matrix.page_${SERVICES}_services_sorted_by_attention.html_kb`, value: kb, unit: "KB", target: "< 300", pass: bytes < 300 * 1024 });
    }
  }
  return figures;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { startFleet } = await import("./fleet");
  const log = (l: string) => console.log(`  · ${l}`);
  const fleet = await startFleet(log);
  try {
    for (const f of await benchMatrix(fleet, log)) console.log(`${f.pass === null ? "info" : f.pass ? "PASS" : "FAIL"}  ${f.name}  ${f.value} ${f.unit}  ${f.target}  ${f.note ?? ""}`);
  } finally {
    await fleet.stop();
  }
  process.exit(0);
}
