// Faults from agents: reports that arrive out of order, twice, all at once, or
// stale (a replay of an old observation). Each scenario ends by reading the
// stored history straight from PostgreSQL: no run reopened by a stale report,
// no duplicated or overlapping rows, nothing lost, and every answer a 202.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { api, makeWorkspace, testDb, type TestWorkspace } from "../support/api";

const D = (n: number) => `sha256:${String(n).repeat(64).slice(0, 64)}`;
let ws: TestWorkspace;

type W = { service: string; container: string; main: boolean; image: string; digest: string; platform_digest: null; platform: string; since: string };
const w = (service: string, image: string, digest: string, since: string): W => ({ service, container: service, main: true, image, digest, platform_digest: null, platform: "linux/amd64", since });
const T = (minutes: number) => new Date(Date.UTC(2026, 10, 10, 0, 0, 0) + minutes * 60_000).toISOString();

function report(target: string, observedAt: string, workloads: W[], environment = "production") {
  return { environment, target: { name: target, kind: "docker" as const }, observed_at: observedAt, workloads };
}

async function post(body: object) {
  const res = await api(ws.agentKey).post("/api/v1/agent/report", body);
  expect(res.status).toBe(202);
  return res.body as { changed: boolean; ignored: "stale" | null; opened: number; closed: number };
}

type RunRow = { service: string; container: string; image: string; from: string; to: string | null };

/** The target's stored history, oldest first, read from the database. */
async function runsOf(target: string): Promise<RunRow[]> {
  const rows = await testDb().$queryRaw<{ service: string; container: string; image: string; from: Date; to: Date | null }[]>`
    SELECT s.name AS service, r.container, r.image, r."from", r."to" FROM runs r
    JOIN services s ON s.id = r.service_id JOIN targets t ON t.id = r.target_id
    WHERE r.workspace_id = ${ws.id}::uuid AND t.name = ${target}
    ORDER BY r."from", r.id`;
  return rows.map((r) => ({ service: r.service, container: r.container, image: r.image, from: r.from.toISOString(), to: r.to?.toISOString() ?? null }));
}

/** History must stay true: one row per run, no two rows of a container overlapping, never more than one open. */
function assertHistoryTrue(rows: RunRow[]): void {
  const byContainer = new Map<string, RunRow[]>();
  for (const r of rows) byContainer.set(`${r.service}/${r.container}`, [...(byContainer.get(`${r.service}/${r.container}`) ?? []), r]);
  for (const [key, list] of byContainer) {
    expect(list.filter((r) => r.to === null).length, `${key}: open rows`).toBeLessThanOrEqual(1);
    const seen = new Set(list.map((r) => `${r.image}@${r.from}`));
    expect(seen.size, `${key}: duplicated rows`).toBe(list.length);
    for (const r of list) if (r.to !== null) expect(r.to >= r.from, `${key}: negative run`).toBe(true);
    for (let i = 1; i < list.length; i++) {
      const prev = list[i - 1]!;
      expect(prev.to !== null && prev.to <= list[i]!.from, `${key}: ${prev.image} from ${prev.from} overlaps ${list[i]!.image} from ${list[i]!.from}`).toBe(true);
    }
  }
}

async function eventCounts(): Promise<{ total: number; dupes: number }> {
  const [row] = await testDb().$queryRaw<{ total: bigint; keys: bigint }[]>`
    SELECT count(*) AS total, count(DISTINCT dedupe_key) AS keys FROM events WHERE workspace_id = ${ws.id}::uuid`;
  return { total: Number(row!.total), dupes: Number(row!.total - row!.keys) };
}

beforeAll(async () => {
  ws = await makeWorkspace("faults-agent");
});

describe("agent reports out of order, twice or stale", () => {
  it("ignores an older report that arrives after a newer one: the newer history stands", async () => {
    const target = `docker@ooo-${randomUUID().slice(0, 6)}`;
    const v1 = w("web", "nginx:1.27.1", D(1), T(0));
    const v2 = w("web", "nginx:1.27.2", D(2), T(60));
    expect(await post(report(target, T(70), [v2]))).toMatchObject({ changed: true, opened: 1 });
    // The older observation, delivered late (a retry queued during an outage).
    expect(await post(report(target, T(10), [v1]))).toMatchObject({ changed: false, ignored: "stale" });
    expect(await runsOf(target)).toEqual([{ service: "web", container: "web", image: "nginx:1.27.2", from: T(60), to: null }]);
  });

  it("never reopens a run that a newer report closed, however often the old one is replayed", async () => {
    const target = `docker@stale-${randomUUID().slice(0, 6)}`;
    const web = w("web", "nginx:1.27.1", D(1), T(0));
    const api1 = w("api", "node:22.1.0", D(3), T(0));
    await post(report(target, T(10), [web, api1]));
    // `api` stops: its run closes at the report's observed_at.
    expect(await post(report(target, T(20), [web]))).toMatchObject({ changed: true, closed: 1 });
    const after = await runsOf(target);
    for (let i = 0; i < 5; i++) expect(await post(report(target, T(10), [web, api1]))).toMatchObject({ ignored: "stale", changed: false });
    // Older still, and different again: also stale.
    expect(await post(report(target, T(5), [w("web", "nginx:1.26.0", D(4), T(1))]))).toMatchObject({ ignored: "stale" });
    expect(await runsOf(target)).toEqual(after);
    expect(after.find((r) => r.service === "api")).toMatchObject({ to: T(20) });
    assertHistoryTrue(after);
  });

  it("stores a report sent many times, in sequence and all at once, exactly once", async () => {
    const target = `docker@dup-${randomUUID().slice(0, 6)}`;
    const body = report(target, T(30), [w("web", "nginx:1.27.1", D(1), T(0)), w("worker", "python:3.12.4", D(5), T(2))]);
    const events0 = await eventCounts();
    const answers = await Promise.all(Array.from({ length: 12 }, () => post(body)));
    expect(answers.filter((a) => a.changed)).toHaveLength(1);
    expect(answers.reduce((n, a) => n + a.opened, 0)).toBe(2);
    for (let i = 0; i < 3; i++) expect(await post({ ...body, observed_at: T(31 + i) })).toMatchObject({ changed: false, opened: 0, closed: 0 });
    const rows = await runsOf(target);
    expect(rows.map((r) => [r.service, r.image, r.from, r.to])).toEqual([
      ["web", "nginx:1.27.1", T(0), null],
      ["worker", "python:3.12.4", T(2), null],
    ]);
    expect((await eventCounts()).dupes).toBe(0);
    expect((await eventCounts()).total).toBeGreaterThanOrEqual(events0.total);
  });

  it("keeps history true when a shuffled burst of reports arrives at once, and the newest state wins", async () => {
    const target = `docker@burst-${randomUUID().slice(0, 6)}`;
    // Ten successive deploys, one report each; delivered all at once in a shuffled order.
    const reports = Array.from({ length: 10 }, (_, i) => report(target, T(100 + i * 10), [w("web", `nginx:1.27.${i}`, D(i % 10), T(95 + i * 10)), w("db", "postgres:16.4", D(9), T(0))]));
    const shuffled = [...reports].sort(() => Math.random() - 0.5);
    const answers = await Promise.all(shuffled.map((r) => post(r)));
    // Whatever order they were applied in, the newest report was applied last or made the others stale.
    const rows = await runsOf(target);
    assertHistoryTrue(rows);
    expect(rows.filter((r) => r.to === null).map((r) => r.image).sort()).toEqual(["nginx:1.27.9", "postgres:16.4"]);
    expect(rows.filter((r) => r.service === "db")).toHaveLength(1);
    expect(answers.filter((a) => a.ignored === "stale").length + answers.filter((a) => a.changed).length).toBe(10);
    // Replaying the whole burst changes nothing.
    await Promise.all(reports.map((r) => post(r)));
    expect(await runsOf(target)).toEqual(rows);
  });

  it("does not duplicate a run when a container missing from one report reappears, unchanged, in a newer one", async () => {
    const target = `docker@flap-${randomUUID().slice(0, 6)}`;
    const web = w("web", "nginx:1.27.1", D(1), T(0));
    const db = w("db", "postgres:16.4", D(9), T(0));
    await post(report(target, T(10), [web, db]));
    // The runtime's listing misses `db` once (a partial answer), then shows it again with the same start time.
    await post(report(target, T(20), [web]));
    expect(await post(report(target, T(30), [web, db]))).toMatchObject({ changed: true });
    const rows = await runsOf(target);
    assertHistoryTrue(rows);
    // The same container, never restarted: one run, open again.
    expect(rows.filter((r) => r.service === "db")).toEqual([{ service: "db", container: "db", image: "postgres:16.4", from: T(0), to: null }]);
    // A real restart later (new start time) is a new run, closed cleanly.
    await post(report(target, T(40), [web]));
    await post(report(target, T(50), [web, w("db", "postgres:16.4", D(9), T(45))]));
    const later = await runsOf(target);
    assertHistoryTrue(later);
    expect(later.filter((r) => r.service === "db").map((r) => [r.from, r.to])).toEqual([
      [T(0), T(40)],
      [T(45), null],
    ]);
  });

  it("answers a report for the same target with a different kind with 409, storing nothing", async () => {
    const target = `docker@kind-${randomUUID().slice(0, 6)}`;
    await post(report(target, T(10), [w("web", "nginx:1.27.1", D(1), T(0))]));
    const before = await runsOf(target);
    const res = await api(ws.agentKey).post("/api/v1/agent/report", { ...report(target, T(20), []), target: { name: target, kind: "kubernetes" } });
    expect(res.status).toBe(409);
    expect(res.contentType).toContain("application/problem+json");
    expect(await runsOf(target)).toEqual(before);
  });
});
