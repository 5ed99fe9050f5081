// A classic Helm chart repository: GET <repository>/index.yaml with If-None-Match (one request a
// check, a 304 when nothing was published), over the registries' transport (https only, http for
// configured insecure hosts, redirects checked hop by hop, per-host limits, a timeout).
import { parse as parseYaml } from "yaml";
import { AppError } from "@/lib/domain/errors";
import { malformed, statusError } from "@/lib/adapters/registries/errors";
import { createRateLimiter, parseRetryAfter } from "@/lib/adapters/registries/rate-limit";
import { createTransport, type RequestInfo } from "@/lib/adapters/registries/transport";
import { chartIndexSchema } from "./schema";

export type ChartVersion = { version: string; created: Date | null };

export interface ChartIndexClient {
  /** The versions of `chart` the repository at `url` lists; `not_found` when it lists none. */
  listVersions(url: string, chart: string): Promise<ChartVersion[]>;
}

export type ChartIndexClientOptions = {
  insecureHosts?: readonly string[];
  timeoutMs?: number;
  fetch?: typeof fetch;
  now?: () => number;
  onRequest?: (info: RequestInfo) => void;
};

/** A busy public index (every chart of a publisher, with all versions) runs to tens of megabytes. */
const MAX_INDEX_BYTES = 64 * 1024 * 1024;

type Cached = { etag: string; entries: Map<string, ChartVersion[]> };

export function createChartIndexClient(opts: ChartIndexClientOptions = {}): ChartIndexClient {
  const now = opts.now ?? Date.now;
  const transport = createTransport({
    fetch: opts.fetch ?? globalThis.fetch,
    insecureHosts: new Set((opts.insecureHosts ?? []).map((h) => h.trim().toLowerCase())),
    timeoutMs: opts.timeoutMs ?? 30_000,
    limiter: createRateLimiter({ maxConcurrencyPerHost: 2, now }),
    now,
    onRequest: opts.onRequest,
  });
  // The last index read per repository, kept while its ETag holds.
  const cache = new Map<string, Cached>();

  async function entriesOf(url: string): Promise<Map<string, ChartVersion[]>> {
    const indexUrl = new URL(`${url.replace(/\/+$/, "")}/index.yaml`);
    const what = `GET ${indexUrl.host}${indexUrl.pathname}`;
    const cached = cache.get(url);
    const headers: Record<string, string> = { accept: "application/x-yaml, text/yaml, */*" };
    if (cached) headers["if-none-match"] = cached.etag;
    const ex = await transport.send(indexUrl, { method: "GET", headers, maxBytes: MAX_INDEX_BYTES });
    if (ex.status === 304 && cached) return cached.entries;
    if (ex.status === 429) {
      const waitMs = parseRetryAfter(ex.headers.get("retry-after"), now());
      throw new AppError("rate_limited", `${indexUrl.host} answered 429`, { retryAfterSeconds: waitMs === null ? undefined : Math.ceil(waitMs / 1000) });
    }
    if (ex.status !== 200) throw statusError(ex.status, ex.body, `${what}`);
    let raw: unknown;
    try {
      raw = parseYaml(ex.body.toString("utf8"), { maxAliasCount: 100 });
    } catch (err) {
      throw malformed(what, err instanceof Error ? err.message : "not YAML");
    }
    const parsed = chartIndexSchema.safeParse(raw);
    if (!parsed.success) throw malformed(what, parsed.error);
    const entries = new Map<string, ChartVersion[]>();
    for (const [chart, versions] of Object.entries(parsed.data.entries)) {
      entries.set(chart, versions.map((v) => ({ version: v.version, created: createdOf(v.created) })));
    }
    const etag = ex.headers.get("etag");
    if (etag) cache.set(url, { etag, entries });
    else cache.delete(url);
    return entries;
  }

  return {
    async listVersions(url, chart) {
      const versions = (await entriesOf(url)).get(chart);
      if (!versions?.length) throw new AppError("not_found", `GET ${new URL(url).host}: chart ${chart} is not in ${url}/index.yaml`);
      return versions;
    },
  };
}

function createdOf(value: string | null | undefined): Date | null {
  if (!value) return null;
  const t = Date.parse(value);
  return Number.isFinite(t) ? new Date(t) : null;
}
