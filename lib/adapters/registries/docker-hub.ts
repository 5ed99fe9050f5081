// Docker Hub's own tags API: one request lists up to 100 tags with their
// index digest, per-platform digests and push dates, without touching the
// registry's pull limit. Pages come newest first (ordering by last_updated).
import { AppError } from "@/lib/domain/errors";
import { isRepositoryPath, normaliseRegistryHost } from "@/lib/domain/image-ref";
import { parseBody, statusError, unavailable } from "@/lib/adapters/registries/errors";
import type { RegistryClientOptions } from "@/lib/adapters/registries/client";
import { createRateLimiter } from "@/lib/adapters/registries/rate-limit";
import { hubTagsPageSchema } from "@/lib/adapters/registries/schemas";
import { createTransport } from "@/lib/adapters/registries/transport";

export const DOCKER_HUB_API_HOST = "hub.docker.com";
const PAGE_SIZE = 100;
const DEFAULT_MAX_PAGES = 20;

export type HubTag = {
  name: string;
  /** Index (or single manifest) digest; null for tags Hub has no digest for. */
  digest: string | null;
  mediaType: string | null;
  /** RFC 3339, as Hub reports them. */
  lastPushed: string | null;
  lastUpdated: string | null;
  images: { digest: string; os: string; architecture: string; variant?: string }[];
};

export type HubTagList = { tags: HubTag[]; isComplete: boolean };

export type DockerHubClient = {
  /** Tags of a Docker Hub repository (`library/nginx`), newest first, up to `maxPages` pages of 100. */
  listTags(path: string, opts?: { maxPages?: number }): Promise<HubTagList>;
};

export type DockerHubClientOptions = Pick<RegistryClientOptions, "fetch" | "resolveBaseUrl" | "timeoutMs" | "now" | "onRequest">;

function parseNext(link: string, what: string): URL {
  try {
    return new URL(link);
  } catch {
    throw unavailable(`${what}: next page ${JSON.stringify(link)} is not a URL`);
  }
}

export function isDockerHub(host: string): boolean {
  return normaliseRegistryHost(host) === "docker.io";
}

export function createDockerHubClient(opts: DockerHubClientOptions = {}): DockerHubClient {
  const now = opts.now ?? Date.now;
  const transport = createTransport({
    fetch: opts.fetch ?? globalThis.fetch,
    resolveBaseUrl: opts.resolveBaseUrl,
    insecureHosts: new Set(),
    timeoutMs: opts.timeoutMs ?? 10_000,
    limiter: createRateLimiter({ maxConcurrencyPerHost: 2, now }),
    now,
    onRequest: opts.onRequest,
  });

  return {
    async listTags(path, { maxPages = DEFAULT_MAX_PAGES } = {}) {
      const segments = path.split("/");
      if (!isRepositoryPath(path) || segments.length !== 2) {
        throw new AppError("bad_request", `Not a Docker Hub repository: ${JSON.stringify(path)}.`);
      }
      const what = `Docker Hub tags of ${path}`;
      const base = `https://${DOCKER_HUB_API_HOST}/v2/repositories/${path}/tags`;
      const tags: HubTag[] = [];
      const seen = new Set<string>();
      const visited = new Set<string>();
      let next: URL | null = new URL(`${base}?page_size=${PAGE_SIZE}`);
      for (let page = 0; next !== null; page++) {
        if (page >= maxPages) return { tags, isComplete: false };
        if (next.host !== DOCKER_HUB_API_HOST || next.pathname !== new URL(base).pathname) {
          throw unavailable(`${what}: next page points at ${next.host}${next.pathname}`);
        }
        if (visited.has(next.href)) throw unavailable(`${what}: paging loops back to ${next.href}`);
        visited.add(next.href);
        const ex = await transport.send(next, { method: "GET", headers: { accept: "application/json" } });
        if (ex.status !== 200) throw statusError(ex.status, ex.body, what);
        const body = parseBody(hubTagsPageSchema, ex.body, what);
        for (const t of body.results) {
          if (seen.has(t.name)) continue;
          seen.add(t.name);
          tags.push({
            name: t.name,
            digest: t.digest ?? null,
            mediaType: t.media_type ?? null,
            lastPushed: t.tag_last_pushed ?? null,
            lastUpdated: t.last_updated ?? null,
            images: (t.images ?? []).flatMap((i) =>
              i.digest ? [{ digest: i.digest, os: i.os, architecture: i.architecture, ...(i.variant ? { variant: i.variant } : {}) }] : [],
            ),
          });
        }
        next = body.next ? parseNext(body.next, what) : null;
      }
      return { tags, isComplete: true };
    },
  };
}
