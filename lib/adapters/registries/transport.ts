// One HTTP exchange with a registry, its token service or a blob store:
// https only (plain http for configured insecure hosts), a timeout covering the
// body, redirects followed by hand (each hop checked, credentials dropped when
// the host changes), per-host limits, and one report per exchange.
import { performance } from "node:perf_hooks";
import { AppError } from "@/lib/domain/errors";
import { unavailable } from "@/lib/adapters/registries/errors";
import { parseRetryAfter, type RateLimiter } from "@/lib/adapters/registries/rate-limit";

export type RequestInfo = { host: string; method: string; path: string; status: number; ms: number };

export type TransportOptions = {
  fetch: typeof fetch;
  /** Maps a logical host to the base URL actually contacted (tests: a loopback server). */
  resolveBaseUrl?: (host: string) => string;
  insecureHosts: ReadonlySet<string>;
  timeoutMs: number;
  limiter: RateLimiter;
  now: () => number;
  onRequest?: (info: RequestInfo) => void;
};

export type SendInit = {
  method: "GET" | "HEAD";
  headers?: Record<string, string>;
  /** A manifest GET: counts against Docker Hub's pull limit. */
  isPull?: boolean;
  maxBytes?: number;
};

export type Exchange = { status: number; headers: Headers; body: Buffer; url: URL };

export type Transport = {
  isInsecure(host: string): boolean;
  /** The logical origin of a registry API host: `https://host`, or `http://host` when insecure. */
  originOf(apiHost: string): string;
  send(url: URL, init: SendInit): Promise<Exchange>;
};

const MAX_REDIRECTS = 5;
const DEFAULT_MAX_BYTES = 8 * 1024 * 1024;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

async function readBody(res: Response, maxBytes: number, what: string): Promise<Buffer> {
  if (!res.body) return Buffer.alloc(0);
  const declared = Number(res.headers.get("content-length") ?? "0");
  if (declared > maxBytes) {
    await res.body.cancel();
    throw unavailable(`${what}: response of ${declared} bytes exceeds ${maxBytes}`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw unavailable(`${what}: response exceeds ${maxBytes} bytes`);
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks);
}

function networkError(err: unknown, what: string, timeoutMs: number): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError")) {
    return unavailable(`${what}: no answer within ${timeoutMs} ms`, err);
  }
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : err instanceof Error ? err.message : String(err);
  return unavailable(`${what}: request failed (${cause})`, err);
}

export function createTransport(opts: TransportOptions): Transport {
  const isInsecure = (host: string) => opts.insecureHosts.has(host.toLowerCase());

  function physicalUrl(url: URL): string {
    if (!opts.resolveBaseUrl) return url.href;
    return opts.resolveBaseUrl(url.host).replace(/\/+$/, "") + url.pathname + url.search;
  }

  function assertAllowed(url: URL): void {
    if (url.protocol === "https:") return;
    if (url.protocol === "http:" && isInsecure(url.host)) return;
    throw unavailable(`refusing ${url.protocol}//${url.host}: only https, or http for a configured insecure registry`);
  }

  async function exchangeOnce(url: URL, init: SendInit, headers: Record<string, string>): Promise<{ res: Response; body: Buffer }> {
    const what = `${init.method} ${url.host}${url.pathname}`;
    const started = performance.now();
    let status = 0;
    try {
      const res = await opts.fetch(physicalUrl(url), {
        method: init.method,
        headers,
        redirect: "manual",
        signal: AbortSignal.timeout(opts.timeoutMs),
      });
      status = res.status;
      const body =
        init.method === "HEAD" || REDIRECT_STATUSES.has(res.status)
          ? (await res.body?.cancel(), Buffer.alloc(0))
          : await readBody(res, init.maxBytes ?? DEFAULT_MAX_BYTES, what);
      return { res, body };
    } catch (err) {
      throw networkError(err, what, opts.timeoutMs);
    } finally {
      opts.onRequest?.({ host: url.host, method: init.method, path: url.pathname, status, ms: performance.now() - started });
    }
  }

  async function send(start: URL, init: SendInit): Promise<Exchange> {
    let url = start;
    const headers = { ...init.headers };
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      assertAllowed(url);
      let answer: { res: Response; body: Buffer } | null = null;
      // At most one retry after a 429, and only when its back-off is short.
      for (let attempt = 0; attempt < 2; attempt++) {
        const release = await opts.limiter.acquire(url.host, { isPull: init.isPull ?? false });
        try {
          answer = await exchangeOnce(url, init, headers);
        } finally {
          release();
        }
        opts.limiter.observe(url.host, answer.res.status, answer.res.headers);
        if (answer.res.status !== 429) break;
      }
      if (!answer) throw unavailable(`${init.method} ${url.host}: no response`);
      const { res, body } = answer;
      if (res.status === 429) {
        const retryMs = parseRetryAfter(res.headers.get("retry-after"), opts.now());
        throw new AppError("rate_limited", `${url.host} answered 429 Too Many Requests.`, {
          retryAfterSeconds: retryMs === null ? 60 : Math.max(1, Math.ceil(retryMs / 1000)),
        });
      }
      const location = res.headers.get("location");
      if (REDIRECT_STATUSES.has(res.status) && location) {
        const next = new URL(location, url);
        if (next.host !== url.host) delete headers.authorization;
        url = next;
        continue;
      }
      return { status: res.status, headers: res.headers, body, url };
    }
    throw unavailable(`${init.method} ${start.host}${start.pathname}: more than ${MAX_REDIRECTS} redirects`);
  }

  return {
    isInsecure,
    originOf: (apiHost) => `${isInsecure(apiHost) ? "http" : "https"}://${apiHost}`,
    send,
  };
}

/** A request to one repository's API (`path` like `/v2/<name>/tags/list`), authenticated by the client. */
export type RepoFetch = (method: "GET" | "HEAD", path: string, init?: Omit<SendInit, "method">) => Promise<Exchange>;
