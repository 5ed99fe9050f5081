// The OCI registry client: tag lists, digests, manifests and labels for any
// registry speaking the distribution API, with the auth, rate-limit and
// transport rules of the sibling modules. Configuration comes in as options.
import { AppError } from "@/lib/domain/errors";
import { isDigest, isRegistryHost, isRepositoryPath, isTag, normaliseRegistryHost, registryApiHost } from "@/lib/domain/image-ref";
import { createAuthenticator, type AuthTarget, type Authorization, type Credentials } from "@/lib/adapters/registries/auth";
import { statusError } from "@/lib/adapters/registries/errors";
import { getImageLabels, getManifest, headDigest, type Manifest } from "@/lib/adapters/registries/manifests";
import { createRateLimiter } from "@/lib/adapters/registries/rate-limit";
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
  /** Base URL actually contacted for a host; default `https://<api host>` (`http://` when insecure). */
  resolveBaseUrl?: (host: string) => string;
  now?: () => number;
  /** One call per HTTP exchange (token services and redirects included); `path` has no query. */
  onRequest?: (info: RequestInfo) => void;
};

export type RegistryRepo = { host: string; path: string };

export interface RegistryClient {
  /** Every tag, de-duplicated, following `Link` pages. */
  listTags(repo: RegistryRepo): Promise<string[]>;
  /** `Docker-Content-Digest` from a HEAD; null on 404. */
  headDigest(repo: RegistryRepo, reference: string): Promise<string | null>;
  /** A manifest GET (a pull on Docker Hub: use sparingly); null on 404. */
  getManifest(repo: RegistryRepo, reference: string): Promise<Manifest | null>;
  /** Index → first linux/amd64 manifest → config blob labels. */
  getImageLabels(repo: RegistryRepo, reference: string): Promise<Record<string, string>>;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_CONCURRENCY = 4;

function targetOf(repo: RegistryRepo): AuthTarget {
  const host = normaliseRegistryHost(repo.host);
  if (!isRegistryHost(host)) throw new AppError("bad_request", `Not a registry host: ${JSON.stringify(repo.host)}.`);
  if (!isRepositoryPath(repo.path)) throw new AppError("bad_request", `Not a repository path: ${JSON.stringify(repo.path)}.`);
  return { host, apiHost: registryApiHost(host), path: repo.path };
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

  /** Requests to one repository, answering auth challenges: at most one refusal of a fresh credential. */
  function repoFetch(repo: RegistryRepo): RepoFetch {
    const target = targetOf(repo);
    const origin = transport.originOf(target.apiHost);
    return async (method, path, init = {}) => {
      let authorization: Authorization | null = await auth.prepare(target);
      for (let round = 0; ; round++) {
        const headers = { ...init.headers, ...(authorization ? { authorization: authorization.header } : {}) };
        const ex = await transport.send(new URL(path, origin), { ...init, method, headers });
        if (ex.status !== 401) return ex;
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
    getManifest: async (repo, reference) => getManifest(repoFetch(repo), repo.path, checkReference(reference)),
    getImageLabels: async (repo, reference) => getImageLabels(repoFetch(repo), repo.path, checkReference(reference)),
  };
}
