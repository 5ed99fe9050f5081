// Which sign-in the registry client sends to a host: the configured one for
// that reference host, and Docker Hub's for the hosts tests ration like it.
// Never any other host's: a credential goes only where it was given for.
import type { Credentials } from "@/lib/adapters/registries/auth";
import type { Config } from "@/lib/config";
import { DOCKER_HUB_HOST, normaliseRegistryHost } from "@/lib/domain/image-ref";
import { pullProfileOf } from "@/lib/domain/registry-budget/profiles";

export function registryCredentialsFor(config: Pick<Config, "registryCredentials" | "dockerHubHosts">): (host: string) => Credentials | null {
  return (host) => {
    const h = normaliseRegistryHost(host);
    const own = config.registryCredentials[h];
    if (own) return own;
    if (h !== DOCKER_HUB_HOST && config.dockerHubHosts.includes(h) && pullProfileOf(h, { dockerHubHosts: config.dockerHubHosts })) {
      return config.registryCredentials[DOCKER_HUB_HOST] ?? null;
    }
    return null;
  };
}
