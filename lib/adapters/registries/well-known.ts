// Which registries the server queries itself: public registries of
// well-known operators, plus DRIFTWATCH_SERVER_REGISTRIES. Every other host,
// and private repositories anywhere, are left to agents with credentials.
import { isRegistryHost, normaliseRegistryHost } from "@/lib/domain/image-ref";

export const WELL_KNOWN_REGISTRIES: readonly string[] = [
  "docker.io",
  "ghcr.io",
  "quay.io",
  "gcr.io",
  // gcr.io's regional hosts belong to the same public operator.
  "us.gcr.io",
  "eu.gcr.io",
  "asia.gcr.io",
  "registry.k8s.io",
  "public.ecr.aws",
  "mcr.microsoft.com",
  "lscr.io",
  "registry.gitlab.com",
];

const WELL_KNOWN = new Set(WELL_KNOWN_REGISTRIES);

function canonicalHost(host: string): string {
  return normaliseRegistryHost(host).replace(/:443$/, "");
}

/** Does the server query this registry itself (rather than leaving it to agents)? */
export function isServerQueried(host: string, extraHosts: readonly string[] = []): boolean {
  const h = canonicalHost(host);
  return WELL_KNOWN.has(h) || extraHosts.some((extra) => canonicalHost(extra) === h);
}

/**
 * Parses a comma-separated `host[:port]` list (DRIFTWATCH_SERVER_REGISTRIES,
 * DRIFTWATCH_INSECURE_REGISTRIES); `invalid` names the first bad entry.
 */
export function parseRegistryHostList(value: string | undefined): { hosts: string[] } | { invalid: string } {
  const hosts: string[] = [];
  for (const raw of (value ?? "").split(",")) {
    const entry = raw.trim();
    if (entry === "") continue;
    if (!isRegistryHost(entry)) return { invalid: entry };
    hosts.push(canonicalHost(entry));
  }
  return { hosts: [...new Set(hosts)] };
}
