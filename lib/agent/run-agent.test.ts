import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startReplayServer, type RecordedRequest, type ReplayServer, type ReplyInit } from "@/tests/support/replay-server";
import { dockerRoutes } from "@/tests/support/docker-fixture-routes";
import type { CollectResult } from "@/lib/adapters/runtimes/collect";
import { agentReportSchema, type AgentReport, type Workload } from "@/lib/domain/agent-report";
import { backoffMs, EXIT, reportHash, runAgent, type RunAgentDeps } from "./run-agent";

const KEY = "dwa_live_7Hq2xN9pLm4Rt8Vz1Kc6Bw3Yd5Fs0Ge";
const START = Date.parse("2026-11-20T10:00:00Z");

const workload = (image: string): Workload => ({
  service: "web",
  container: "shop-web-1",
  main: true,
  image,
  digest: `sha256:${"a".repeat(64)}`,
  platform_digest: null,
  platform: "linux/amd64",
  since: "2026-11-12T08:00:00.000Z",
  application: "shop",
});

const report = (image: string, observedAt: number): AgentReport => ({
  environment: "staging",
  target: { name: "docker@app-host-1", kind: "docker" },
  observed_at: new Date(observedAt).toISOString(),
  workloads: [workload(image)],
  registry_results: [],
});

/** A virtual clock: `sleep` advances it at once; `stopWhen` ends the loop. */
function harness(stopWhen: () => boolean) {
  let t = START;
  const controller = new AbortController();
  const logs: string[] = [];
  const sleeps: number[] = [];
  const deps: RunAgentDeps = {
    now: () => new Date(t),
    sleep: async (ms) => {
      sleeps.push(ms);
      t += ms;
      if (stopWhen()) controller.abort();
    },
    log: (line) => logs.push(line),
    random: () => 0.5,
  };
  return { deps, logs, sleeps, signal: controller.signal, now: () => t };
}

const collectStub = (images: (call: number) => string, now: () => number) => {
  let calls = 0;
  return async (): Promise<CollectResult> => ({
    reports: [report(images(calls++), now())],
    failures: [],
    sources: ["docker"],
    credentials: { forRepository: async () => null },
  });
};

/** A server answering from `replies` in order (the last one repeats), noting the virtual time of each POST. */
async function reportServer(replies: ReplyInit[], now: () => number) {
  const times: number[] = [];
  const bodies: RecordedRequest[] = [];
  const server = await startReplayServer([
    {
      method: "POST",
      path: "/api/v1/agent/report",
      reply: (req) => {
        times.push(now() - START);
        bodies.push(req);
        return replies[Math.min(times.length - 1, replies.length - 1)] ?? { status: 202 };
      },
    },
  ]);
  return { server, times, bodies };
}

const unavailable: ReplyInit = { status: 503, headers: { "content-type": "application/problem+json" }, body: { type: "about:blank", title: "Service Unavailable", status: 503, detail: "The database is starting." } };

let server: ReplayServer | undefined;
let tmp: string | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  if (tmp) rmSync(tmp, { recursive: true, force: true });
  tmp = undefined;
});

describe("backoffMs", () => {
  it.each([
    [1, 0, 500],
    [1, 0.99, 995],
    [3, 0.5, 3000],
    [9, 0.5, 192_000],
    [10, 0.5, 225_000],
    [30, 0.99, 298_500],
  ])("failure %i with random %f waits %i ms", (failures, r, expected) => {
    expect(backoffMs(failures, { baseMs: 1000, maxMs: 300_000, random: () => r })).toBe(expected);
  });
});

describe("reportHash", () => {
  it("ignores observed_at and workload order, and sees a new image", () => {
    const a = report("nginx:1.27.2-alpine", START);
    const b = { ...report("nginx:1.27.2-alpine", START + 60_000), workloads: [...a.workloads].reverse() };
    expect(reportHash(a)).toBe(reportHash(b));
    expect(reportHash(report("nginx:1.27.3-alpine", START))).not.toBe(reportHash(a));
  });
});

describe("runAgent loop", () => {
  it("retries with exponential back-off while the server answers 503, then reports on 202", async () => {
    const h = harness(() => posts.times.length >= 3);
    const posts = await reportServer([unavailable, unavailable, { status: 202 }], h.now);
    server = posts.server;
    const code = await runAgent(
      { url: server.url, key: KEY, environment: "staging", docker: {}, signal: h.signal },
      { ...h.deps, collect: collectStub(() => "nginx:1.27.2-alpine", h.now) },
    );
    expect(code).toBe(EXIT.ok);
    expect(posts.times).toEqual([0, 750, 2250]);
    expect(h.logs).toEqual([
      `agent: reporting to ${server.url} every 60s and on change (sources: docker)`,
      "docker@app-host-1: server answered 503: The database is starting.; retrying in 750ms",
      "docker@app-host-1: server answered 503: The database is starting.; retrying in 2s",
      "docker@app-host-1: reported 1 workloads (202)",
    ]);
    const sent = posts.bodies[2]!;
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent.headers["content-type"]).toBe("application/json");
    expect(agentReportSchema.parse(JSON.parse(sent.body)).workloads[0]?.image).toBe("nginx:1.27.2-alpine");
  });

  it("keeps backing off through a long outage, capped near five minutes, honouring Retry-After", async () => {
    const replies: ReplyInit[] = Array.from({ length: 12 }, (_, i) => (i === 2 ? { ...unavailable, headers: { "retry-after": "120" } } : unavailable));
    const h = harness(() => posts.times.length >= 13);
    const posts = await reportServer([...replies, { status: 202 }], h.now);
    server = posts.server;
    await runAgent({ url: server.url, key: KEY, environment: "staging", docker: {}, signal: h.signal }, { ...h.deps, collect: collectStub(() => "nginx:1.27.2-alpine", h.now) });
    const gaps = posts.times.slice(1).map((t, i) => t - posts.times[i]!);
    expect(gaps).toEqual([750, 1500, 120_000, 6000, 12_000, 24_000, 48_000, 96_000, 192_000, 225_000, 225_000, 225_000]);
    // Collection went on every poll meanwhile, so the report sent at the end is fresh.
    expect(Math.max(...h.sleeps)).toBeLessThanOrEqual(15_000);
  });

  it("reports on change at the next poll and otherwise once an interval", async () => {
    const h = harness(() => h.now() - START >= 110_000);
    const posts = await reportServer([{ status: 202 }], h.now);
    server = posts.server;
    await runAgent(
      { url: server.url, key: KEY, environment: "staging", docker: {}, signal: h.signal },
      { ...h.deps, collect: collectStub((call) => (call < 3 ? "nginx:1.27.2-alpine" : "nginx:1.27.3-alpine"), h.now) },
    );
    expect(posts.times).toEqual([0, 45_000, 105_000]);
    const images = posts.bodies.map((b) => (JSON.parse(b.body) as AgentReport).workloads[0]?.image);
    expect(images).toEqual(["nginx:1.27.2-alpine", "nginx:1.27.3-alpine", "nginx:1.27.3-alpine"]);
  });

  it("waits an interval after a refusal, and never logs the key", async () => {
    const refused: ReplyInit = { status: 401, headers: { "content-type": "application/problem+json" }, body: { type: "about:blank", title: "Unauthorized", status: 401, detail: `The agent key ${KEY} is not known.` } };
    const h = harness(() => h.now() - START >= 70_000);
    const posts = await reportServer([refused, { status: 202 }], h.now);
    server = posts.server;
    await runAgent({ url: server.url, key: KEY, environment: "staging", docker: {}, signal: h.signal }, { ...h.deps, collect: collectStub(() => "nginx:1.27.2-alpine", h.now) });
    expect(posts.times).toEqual([0, 60_000]);
    expect(h.logs[1]).toBe("docker@app-host-1: report refused, server answered 401: The agent key [redacted] is not known.");
    expect(h.logs.join("\n")).not.toContain(KEY);
  });

  it("goes on reporting the sources that work, logging one line per failing source", async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), "dw-agent-"));
    const socketPath = path.join(tmp, "docker.sock");
    const docker = await startReplayServer(dockerRoutes({ list: "docker/containers-set1.json", containerDirs: ["docker/containers"] }), { socketPath });
    try {
      const h = harness(() => h.now() - START >= 40_000);
      const posts = await reportServer([{ status: 202 }], h.now);
      server = posts.server;
      const code = await runAgent(
        { url: server.url, key: KEY, environment: "staging", docker: { socketPath }, nomad: { addr: "http://127.0.0.1:1", token: KEY }, signal: h.signal },
        h.deps,
      );
      expect(code).toBe(EXIT.ok);
      expect(posts.times).toEqual([0]);
      const report = agentReportSchema.parse(JSON.parse(posts.bodies[0]!.body));
      expect(report.target).toEqual({ name: "docker@app-host-1", kind: "docker" });
      expect(h.logs.filter((l) => l.startsWith("nomad:"))).toEqual([expect.stringMatching(/^nomad: Cannot reach Nomad API at 127\.0\.0\.1:1 \(ECONNREFUSED\)/)]);
      expect(h.logs.join("\n")).not.toContain(KEY);
    } finally {
      await docker.close();
    }
  });
});

describe("runAgent once", () => {
  it("exits 0 with one line when every report was accepted", async () => {
    const h = harness(() => false);
    const posts = await reportServer([{ status: 202 }], h.now);
    server = posts.server;
    const code = await runAgent({ url: `${server.url}/`, key: KEY, environment: "staging", docker: {}, once: true }, { ...h.deps, collect: collectStub(() => "nginx:1.27.2-alpine", h.now) });
    expect(code).toBe(EXIT.ok);
    expect(h.logs).toEqual(["agent: reported 1 target: docker@app-host-1 (1 workloads)"]);
    expect(posts.server.requests[0]?.path).toBe("/api/v1/agent/report");
  });

  it("exits non-zero with one line after a refusal, without retrying it", async () => {
    const h = harness(() => false);
    const posts = await reportServer([{ status: 422, body: { title: "Unprocessable Content", status: 422, detail: "workloads/0/since: Invalid ISO datetime" } }], h.now);
    server = posts.server;
    const code = await runAgent({ url: server.url, key: KEY, environment: "staging", docker: {}, once: true }, { ...h.deps, collect: collectStub(() => "nginx:1.27.2-alpine", h.now) });
    expect(code).toBe(EXIT.failed);
    expect(posts.times).toHaveLength(1);
    expect(h.logs).toEqual(["agent: 1 problem: docker@app-host-1: server answered 422: workloads/0/since: Invalid ISO datetime"]);
  });

  it("retries a few times through a 503, then gives up with one line", async () => {
    const h = harness(() => false);
    const posts = await reportServer([unavailable], h.now);
    server = posts.server;
    const code = await runAgent({ url: server.url, key: KEY, environment: "staging", docker: {}, once: true }, { ...h.deps, collect: collectStub(() => "nginx:1.27.2-alpine", h.now) });
    expect(code).toBe(EXIT.failed);
    expect(posts.times).toEqual([0, 750, 2250]);
    expect(h.logs).toHaveLength(1);
  });

  it("reports what it could and exits non-zero when a source failed", async () => {
    const h = harness(() => false);
    const posts = await reportServer([{ status: 202 }], h.now);
    server = posts.server;
    const collect = async (): Promise<CollectResult> => ({
      reports: [report("nginx:1.27.2-alpine", START)],
      failures: [{ source: "kubernetes", message: "Kubernetes API answered 403 for /api/v1/pods: pods is forbidden" }],
      sources: ["docker", "kubernetes"],
      credentials: { forRepository: async () => null },
    });
    const code = await runAgent({ url: server.url, key: KEY, environment: "staging", docker: {}, kubeconfig: "/dev/null", once: true }, { ...h.deps, collect });
    expect(code).toBe(EXIT.failed);
    expect(posts.times).toEqual([0]);
    expect(h.logs).toEqual(["agent: 1 problem: kubernetes: Kubernetes API answered 403 for /api/v1/pods: pods is forbidden"]);
  });

  it("exits 2 when no runtime is configured", async () => {
    const h = harness(() => false);
    expect(await runAgent({ url: "http://127.0.0.1:9", key: KEY, environment: "staging", once: true }, h.deps)).toBe(EXIT.config);
    expect(h.logs).toHaveLength(1);
  });

  it("cannot reach the server: one line naming it, no key", async () => {
    const h = harness(() => false);
    const closed = await startReplayServer([]);
    const port = new URL(closed.url).port;
    await closed.close();
    const url = `http://agent:${KEY}@127.0.0.1:${port}`;
    const code = await runAgent({ url, key: KEY, environment: "staging", docker: {}, once: true, onceAttempts: 1 }, { ...h.deps, collect: collectStub(() => "nginx:1.27.2-alpine", h.now) });
    expect(code).toBe(EXIT.failed);
    expect(h.logs).toEqual([`agent: 1 problem: docker@app-host-1: cannot reach http://127.0.0.1:${port} (ECONNREFUSED)`]);
  });
});
