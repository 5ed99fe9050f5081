// Process-level counters of upstream requests, by host and method: read by
// /metrics and by the benchmark's request counts.
type Key = string;
const counts = new Map<Key, number>();

export function recordUpstreamRequest(info: { host: string; method: string; path: string; status: number }) {
  const kind = /\/tags\/list$/.test(info.path) ? "tags" : /\/manifests\//.test(info.path) ? "manifest" : /\/blobs\//.test(info.path) ? "blob" : "other";
  const key = `${info.host}\u0000${info.method}\u0000${kind}`;
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

export function upstreamRequestCounts(): { host: string; method: string; kind: string; count: number }[] {
  return [...counts].map(([k, count]) => {
    const [host, method, kind] = k.split("\u0000") as [string, string, string];
    return { host, method, kind, count };
  });
}
