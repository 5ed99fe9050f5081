// The agent loop: reports go out every `intervalMs` and as soon as a target's workloads change (checked
// every `pollMs`); a failed POST is retried with capped exponential back-off and jitter while collection
// goes on. `once` collects and reports one time. The agent key never reaches a log line.
import { createHash } from "node:crypto";
import { sortWorkloads } from "@/lib/adapters/runtimes/workloads";
import { collect as defaultCollect, configuredSources, type CollectDeps, type CollectOptions, type CollectResult, type LookupRegistries, type SourceFailure } from "@/lib/adapters/runtimes/collect";
import type { AgentReport } from "@/lib/domain/agent-report";

export type RunAgentOptions = CollectOptions & {
  /** Server base URL. */
  url: string;
  /** Agent key, sent as `Authorization: Bearer <key>`. */
  key: string;
  once?: boolean;
  /** Report at least this often; default 60 s. */
  intervalMs?: number;
  /** Look for changes this often; default 15 s. */
  pollMs?: number;
  /** First retry delay; default 1 s, doubling up to `maxBackoffMs` (default 5 min). */
  baseBackoffMs?: number;
  maxBackoffMs?: number;
  /** POST attempts per report in `once` mode; default 3. */
  onceAttempts?: number;
  requestTimeoutMs?: number;
  signal?: AbortSignal;
};

export type RunAgentDeps = {
  fetch?: typeof fetch;
  now?: () => Date;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  log?: (line: string) => void;
  /** In [0, 1); jitter source. */
  random?: () => number;
  collect?: (opts: CollectOptions, deps: CollectDeps) => Promise<CollectResult>;
  lookupRegistries?: LookupRegistries;
};

export const EXIT = { ok: 0, failed: 1, config: 2 } as const;

type PostOutcome =
  | { ok: true; status: number }
  | { ok: false; retryable: boolean; status: number | null; reason: string; retryAfterMs?: number };

type TargetState = { acceptedHash: string | null; acceptedAt: number; failures: number; nextAttemptAt: number };

/** Identity of a report's content: the same workloads (and `since` values) hash the same whatever `observed_at` says. */
export function reportHash(report: AgentReport): string {
  const body = JSON.stringify([report.environment, report.target, sortWorkloads(report.workloads)]);
  return createHash("sha256").update(body).digest("hex");
}

/** Equal jitter: half the exponential delay is fixed, half random, so retries spread without collapsing to zero. */
export function backoffMs(failures: number, opts: { baseMs: number; maxMs: number; random: () => number }): number {
  const exp = Math.min(opts.maxMs, opts.baseMs * 2 ** Math.max(0, failures - 1));
  return Math.round(exp / 2 + opts.random() * (exp / 2));
}

const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });

function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - nowMs) : undefined;
}

const seconds = (ms: number) => (ms >= 1000 ? `${Math.round(ms / 1000)}s` : `${ms}ms`);

export async function runAgent(opts: RunAgentOptions, deps: RunAgentDeps = {}): Promise<number> {
  const fetchFn = deps.fetch ?? fetch;
  const now = deps.now ?? (() => new Date());
  const sleep = deps.sleep ?? defaultSleep;
  const random = deps.random ?? Math.random;
  const collectFn = deps.collect ?? defaultCollect;
  const intervalMs = opts.intervalMs ?? 60_000;
  const pollMs = Math.min(opts.pollMs ?? 15_000, intervalMs);
  const backoff = { baseMs: opts.baseBackoffMs ?? 1_000, maxMs: opts.maxBackoffMs ?? 300_000, random };

  const endpoint = new URL("api/v1/agent/report", opts.url.replace(/\/*$/, "/"));
  const origin = endpoint.origin;
  // Redact the key wherever it could surface: server messages, error causes, the URL's user part.
  const secrets = [opts.key, endpoint.password, decodeURIComponent(endpoint.password)].filter((s) => s.length >= 4);
  const log = (line: string) => {
    let safe = line;
    for (const s of secrets) safe = safe.split(s).join("[redacted]");
    (deps.log ?? ((l: string) => process.stderr.write(`${l}\n`)))(safe);
  };
  endpoint.username = "";
  endpoint.password = "";

  if (configuredSources(opts).length === 0) {
    log("agent: no runtime configured: pass --docker-host, --kubeconfig (or run in-cluster), --swarm or --nomad-addr.");
    return EXIT.config;
  }

  const post = async (report: AgentReport): Promise<PostOutcome> => {
    const timeout = AbortSignal.timeout(opts.requestTimeoutMs ?? 30_000);
    const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
    let res: Response;
    try {
      res = await fetchFn(endpoint, {
        method: "POST",
        headers: { authorization: `Bearer ${opts.key}`, "content-type": "application/json", accept: "application/json, application/problem+json", "user-agent": "driftwatch-agent" },
        body: JSON.stringify(report),
        signal,
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      const why = timeout.aborted ? "timed out" : (cause?.code ?? cause?.message ?? (err as Error).message);
      return { ok: false, retryable: true, status: null, reason: `cannot reach ${origin} (${why})` };
    }
    const text = await res.text().catch(() => "");
    if (res.ok) return { ok: true, status: res.status };
    let detail = "";
    try {
      const body = JSON.parse(text) as { detail?: unknown; title?: unknown };
      detail = typeof body.detail === "string" ? body.detail : typeof body.title === "string" ? body.title : "";
    } catch {
      detail = text.slice(0, 200);
    }
    const retryable = res.status === 408 || res.status === 429 || res.status >= 500;
    const reason = `server answered ${res.status}${detail ? `: ${detail.replace(/\s+/g, " ").slice(0, 200)}` : ""}`;
    return { ok: false, retryable, status: res.status, reason, retryAfterMs: parseRetryAfter(res.headers.get("retry-after"), now().getTime()) };
  };

  const collectOnce = () => collectFn(opts, { now, lookupRegistries: deps.lookupRegistries });
  const describeFailure = (f: SourceFailure) => `${f.source}: ${f.message}`;

  if (opts.once) {
    const result = await collectOnce();
    const problems = result.failures.map(describeFailure);
    const done: string[] = [];
    for (const report of result.reports) {
      const attempts = Math.max(1, opts.onceAttempts ?? 3);
      let outcome: PostOutcome = { ok: false, retryable: true, status: null, reason: "not sent" };
      for (let attempt = 1; attempt <= attempts; attempt++) {
        outcome = await post(report);
        if (outcome.ok || !outcome.retryable || attempt === attempts) break;
        await sleep(Math.max(outcome.retryAfterMs ?? 0, backoffMs(attempt, backoff)), opts.signal);
      }
      if (outcome.ok) done.push(`${report.target.name} (${report.workloads.length} workloads)`);
      else problems.push(`${report.target.name}: ${outcome.reason}`);
    }
    if (problems.length > 0) {
      log(`agent: ${problems.length} problem${problems.length > 1 ? "s" : ""}: ${problems.join("; ")}`);
      return EXIT.failed;
    }
    log(`agent: reported ${done.length} target${done.length === 1 ? "" : "s"}: ${done.join(", ")}`);
    return EXIT.ok;
  }

  log(`agent: reporting to ${origin} every ${seconds(intervalMs)} and on change (sources: ${configuredSources(opts).join(", ")})`);
  const states = new Map<string, TargetState>();
  const sourceLog = new Map<string, { message: string; at: number }>();

  while (!opts.signal?.aborted) {
    const started = now().getTime();
    let result: CollectResult;
    try {
      result = await collectOnce();
    } catch (err) {
      log(`agent: collection failed: ${(err as Error).message}`);
      await sleep(pollMs, opts.signal);
      continue;
    }

    // One line per failing source: when it starts, when its message changes, and once per interval while it lasts.
    const failing = new Set<string>();
    for (const f of result.failures) {
      const key = f.source === "registry" ? `registry:${f.message.split(":")[0]}` : f.source;
      failing.add(key);
      const last = sourceLog.get(key);
      if (!last || last.message !== f.message || started - last.at >= intervalMs) {
        log(describeFailure(f));
        sourceLog.set(key, { message: f.message, at: started });
      }
    }
    for (const key of [...sourceLog.keys()]) {
      if (!failing.has(key)) {
        log(`${key}: recovered`);
        sourceLog.delete(key);
      }
    }

    for (const report of result.reports) {
      const key = `${report.environment}\u0000${report.target.name}`;
      const state = states.get(key) ?? { acceptedHash: null, acceptedAt: Number.NEGATIVE_INFINITY, failures: 0, nextAttemptAt: 0 };
      states.set(key, state);
      const hash = reportHash(report);
      const t = now().getTime();
      const isDue = t >= state.nextAttemptAt && (hash !== state.acceptedHash || t - state.acceptedAt >= intervalMs || state.failures > 0);
      if (!isDue) continue;
      const outcome = await post(report);
      const after = now().getTime();
      if (outcome.ok) {
        if (hash !== state.acceptedHash || state.failures > 0) log(`${report.target.name}: reported ${report.workloads.length} workloads (${outcome.status})`);
        Object.assign(state, { acceptedHash: hash, acceptedAt: after, failures: 0, nextAttemptAt: 0 });
      } else if (outcome.retryable) {
        state.failures += 1;
        const wait = Math.min(backoff.maxMs, Math.max(outcome.retryAfterMs ?? 0, backoffMs(state.failures, backoff)));
        state.nextAttemptAt = after + wait;
        log(`${report.target.name}: ${outcome.reason}; retrying in ${seconds(wait)}`);
      } else {
        // A refusal (bad key, invalid report) will not pass by retrying at once; try again next interval.
        Object.assign(state, { failures: 0, nextAttemptAt: after + intervalMs });
        log(`${report.target.name}: report refused, ${outcome.reason}`);
      }
    }

    const t = now().getTime();
    let wakeAt = started + pollMs;
    for (const s of states.values()) if (s.failures > 0) wakeAt = Math.min(wakeAt, s.nextAttemptAt);
    await sleep(Math.max(0, wakeAt - t), opts.signal);
  }
  return EXIT.ok;
}
