// The OCI registry client: tag lists, digests, manifests and labels for any
// registry speaking the distribution API, with the auth, rate-limit and
// transport rules of the sibling modules. Configuration comes in as options.
import { AppError } from "@/lib/domain/errors";
import { isDigest, isRegistryHost, isRepositoryPath, isTag, normaliseRegistryHost, registryApiHost } from "@/lib/domain/image-ref";
import { createAuthenticator, type AuthTarget, type Authorization, type Credentials } from "@/lib/adapters/registries/auth";
import { statusError } from "@/lib/adapters/registries/errors";
import { getImageLabels, getManifest, headDigest, type Manifest } from "@/lib/adapters/registries/manifests";
import { createRateLimiter, parseRateLimitHeader } from "@/lib/adapters/registries/rate-limit";
import { listAllTags } from "@/lib/adapters/registries/tags";
import { createTransport, type RepoFetch, type RequestInfo } from "@/lib/adapters/registries/transport";

export type { ImageRef } from "@/lib/domain/image-ref";
export type { Manifest, Platform } from "@/lib/adapters/registries/manifests";
export { isPrivateRepositoryError } from "@/lib/adapters/registries/errors";

export type RegistryClientOptions = {
  /** Registry (and token realm) hosts reached over plain http, as `host[:port]`. */
  insecureHosts?: readonly string[];
  /** Per request, body included; default 10 000. */
  timeoutMs?: number;
  /** Default 4. */
  maxConcurrencyPerHost?: number;
  /** Credentials for a reference host (`docker.io`, `ghcr.io`, `registry.local:5000`). */
  credentials?: (host: string) => Credentials | null;
  fetch?: typeof fetch;
  /**
   * A mirror for a reference host (`docker.io` → `https://mirror.local:5000`), like Docker's `registry-mirrors`:
   * that host's API requests go to the mirror instead. Give no credentials for a mirrored host.
   */
  mirrorOf?: (host: string) => string | null;
  /** Base URL actually contacted for a host; default `https://<api host>` (`http://` when insecure). */
  resolveBaseUrl?: (host: string) => string;
  now?: () => number;
  /** One call per HTTP exchange (token services and redirects included); `path` has no query. */
  onRequest?: (info: RequestInfo) => void;
};

export type RegistryRepo = { host: string; path: string };

/** A host's own word on its pull quota (`ratelimit-limit` / `ratelimit-remaining`, sent on manifest HEADs and GETs too). */
export type RateLimitObservation = { limit: number | null; remaining: number; windowSeconds: number | null; at: number };

/** Per call: told of each pull (manifest GET) the call made, so a budget can count what was spent. */
export type PullOptions = { onPull?: () => void };

export interface RegistryClient {
  /** Every tag, de-duplicated, following `Link` pages. */
  listTags(repo: RegistryRepo): Promise<string[]>;
  /** `Docker-Content-Digest` from a HEAD; null on 404. */
  headDigest(repo: RegistryRepo, reference: string): Promise<string | null>;
  /** A manifest GET (a pull on Docker Hub: use sparingly); null on 404. */
  getManifest(repo: RegistryRepo, reference: string, opts?: PullOptions): Promise<Manifest | null>;
  /** Index → first linux/amd64 manifest → config blob labels (one or two pulls). */
  getImageLabels(repo: RegistryRepo, reference: string, opts?: PullOptions): Promise<Record<string, string>>;
  /** The latest rate-limit headers a reference host (`docker.io`) sent, or null when it never sent any. */
  rateLimitOf(host: string): RateLimitObservation | null;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_CONCURRENCY = 4;

function targetOf(repo: RegistryRepo, mirrorOf?: (host: string) => string | null): AuthTarget {
  const host = normaliseRegistryHost(repo.host);
  if (!isRegistryHost(host)) throw new AppError("bad_request", `Not a registry host: ${JSON.stringify(repo.host)}.`);
  if (!isRepositoryPath(repo.path)) throw new AppError("bad_request", `Not a repository path: ${JSON.stringify(repo.path)}.`);
  // The mirror answers for the host: its rate-limit headers, if it passes any on, still count as the host's.
  const mirror = mirrorOf?.(host);
  return { host, apiHost: mirror ? new URL(mirror).host : registryApiHost(host), path: repo.path };
}

function checkReference(reference: string): string {
  if (!isTag(reference) && !isDigest(reference)) throw new AppError("bad_request", `Not a tag or digest: ${JSON.stringify(reference)}.`);
  return reference;
}

export function createRegistryClient(opts: RegistryClientOptions = {}): RegistryClient {
  const now = opts.now ?? Date.now;
  const insecure = new Set<string>();
  for (const h of opts.insecureHosts ?? []) {
    insecure.add(h.trim().toLowerCase());
    insecure.add(registryApiHost(h.trim()));
  }
  const transport = createTransport({
    fetch: opts.fetch ?? globalThis.fetch,
    resolveBaseUrl: opts.resolveBaseUrl,
    insecureHosts: insecure,
    timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    limiter: createRateLimiter({ maxConcurrencyPerHost: opts.maxConcurrencyPerHost ?? DEFAULT_CONCURRENCY, now }),
    now,
    onRequest: opts.onRequest,
  });
  const auth = createAuthenticator({ transport, credentials: opts.credentials, now });

  const rateLimits = new Map<string, RateLimitObservation>();

  function observeRateLimit(host: string, headers: Headers): void {
    const remaining = parseRateLimitHeader(headers.get("ratelimit-remaining"));
    if (!remaining) return;
    const limit = parseRateLimitHeader(headers.get("ratelimit-limit"));
    rateLimits.set(host, { limit: limit?.remaining ?? null, remaining: remaining.remaining, windowSeconds: remaining.windowSeconds ?? limit?.windowSeconds ?? null, at: now() });
  }

  /** Requests to one repository, answering auth challenges: at most one refusal of a fresh credential. */
  function repoFetch(repo: RegistryRepo, pullOpts: PullOptions = {}): RepoFetch {
    const target = targetOf(repo, opts.mirrorOf);
    const origin = transport.originOf(target.apiHost);
    return async (method, path, init = {}) => {
      let authorization: Authorization | null = await auth.prepare(target);
      for (let round = 0; ; round++) {
        const headers = { ...init.headers, ...(authorization ? { authorization: authorization.header } : {}) };
        let ex;
        try {
          ex = await transport.send(new URL(path, origin), { ...init, method, headers });
        } catch (err) {
          // A refused pull: the quota is spent, whatever the host said before.
          if (init.isPull && err instanceof AppError && err.code === "rate_limited") {
            rateLimits.set(target.host, { ...(rateLimits.get(target.host) ?? { limit: null, windowSeconds: null }), remaining: 0, at: now() });
          }
          throw err;
        }
        observeRateLimit(target.host, ex.headers);
        if (ex.status !== 401) {
          if (init.isPull) pullOpts.onPull?.();
          return ex;
        }
        if (authorization?.isFresh || round >= 2) {
          throw new AppError("forbidden", `${target.host}/${target.path}: access denied${authorization ? " with the credentials or token given" : ""}.`, {
            cause: statusError(ex.status, ex.body, `${method} ${path}`),
          });
        }
        authorization = await auth.answer(target, ex.headers.get("www-authenticate"));
      }
    };
  }

  return {
    listTags: async (repo) => listAllTags(repoFetch(repo), repo.path),
    headDigest: async (repo, reference) => headDigest(repoFetch(repo), repo.path, checkReference(reference)),
    getManifest: async (repo, reference, opts) => getManifest(repoFetch(repo, opts), repo.path, checkReference(reference)),
    getImageLabels: async (repo, reference, opts) => getImageLabels(repoFetch(repo, opts), repo.path, checkReference(reference)),
    rateLimitOf: (host) => rateLimits.get(normaliseRegistryHost(host)) ?? null,
  };
}
