// Which sign-in the registry client sends to a host: the configured one for
// that reference host, and Docker Hub's for the hosts tests ration like it.
// Never any other host's: a credential goes only where it was given for.
import type { Credentials } from "@/lib/adapters/registries/auth";
import type { Config } from "@/lib/config";
import { DOCKER_HUB_HOST, normaliseRegistryHost } from "@/lib/domain/image-ref";
import { pullProfileOf } from "@/lib/domain/registry-budget/profiles";

export function registryCredentialsFor(config: Pick<Config, "registryCredentials" | "dockerHubHosts" | "dockerHubMirror">): (host: string) => Credentials | null {
  return (host) => {
    const h = normaliseRegistryHost(host);
    // A mirror pulls with its own credentials: the host's never go to it.
    if (registryMirrorFor(config)(h)) return null;
    const own = config.registryCredentials[h];
    if (own) return own;
    if (h !== DOCKER_HUB_HOST && config.dockerHubHosts.includes(h) && pullProfileOf(h, { dockerHubHosts: config.dockerHubHosts })) {
      return config.registryCredentials[DOCKER_HUB_HOST] ?? null;
    }
    return null;
  };
}

/** The mirror (a base URL, like Docker's `registry-mirrors`) that Docker Hub's pulls go to, and the stand-ins' in tests. */
export function registryMirrorFor(config: Pick<Config, "dockerHubHosts" | "dockerHubMirror">): (host: string) => string | null {
  return (host) => {
    if (!config.dockerHubMirror) return null;
    const h = normaliseRegistryHost(host);
    return h === DOCKER_HUB_HOST || config.dockerHubHosts.includes(h) ? config.dockerHubMirror : null;
  };
}
