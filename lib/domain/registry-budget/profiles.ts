// Registry hosts whose pulls are rationed: how many an hour an address (or a
// signed-in account) may make, and which requests count. A host without a
// profile has no pull limit the server must budget for.
import { DOCKER_HUB_HOST, normaliseRegistryHost } from "@/lib/domain/image-ref";

export type PullProfile = {
  /** Shown on pages: "waiting for Docker Hub quota". */
  name: string;
  anonymousPullsPerWindow: number;
  authenticatedPullsPerWindow: number;
  windowSeconds: number;
};

export const DOCKER_HUB_PROFILE: PullProfile = { name: "Docker Hub", anonymousPullsPerWindow: 10, authenticatedPullsPerWindow: 100, windowSeconds: 3600 };

export type ProfileOptions = {
  /** Further hosts rationed like Docker Hub: loopback registries in tests and the benchmark. */
  dockerHubHosts?: readonly string[];
};

/** The pull profile of a registry host, or null when its pulls are not rationed. */
export function pullProfileOf(host: string, opts: ProfileOptions = {}): PullProfile | null {
  const h = normaliseRegistryHost(host);
  if (h === DOCKER_HUB_HOST) return DOCKER_HUB_PROFILE;
  return opts.dockerHubHosts?.some((d) => normaliseRegistryHost(d) === h) ? DOCKER_HUB_PROFILE : null;
}

export type RequestKind = "manifest" | "blob" | "tags" | "token" | "other";

/** Pulls one request costs: a manifest GET is a pull; a HEAD, a tag list, a blob or a token is not. */
export function pullCost(method: string, kind: RequestKind): number {
  return method === "GET" && kind === "manifest" ? 1 : 0;
}

/** The kind of a registry API request from its path (`/v2/<name>/manifests/<ref>`). */
export function requestKindOf(path: string): RequestKind {
  if (/^\/v2\/.+\/manifests\/[^/]+$/.test(path)) return "manifest";
  if (/^\/v2\/.+\/blobs\/[^/]+$/.test(path)) return "blob";
  if (/^\/v2\/.+\/tags\/list$/.test(path)) return "tags";
  if (!path.startsWith("/v2/")) return "token";
  return "other";
}
