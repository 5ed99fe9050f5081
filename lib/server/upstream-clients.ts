// One registry, forge and end-of-life client per process: rate-limit and
// back-off state per host lives in them, so every check shares it.
import type { Config } from "@/lib/config";
import { createChartIndexClient } from "@/lib/adapters/charts/classic/client";
import { createEolClient } from "@/lib/adapters/eol";
import { createForgeClients } from "@/lib/adapters/forges";
import { createRegistryClient } from "@/lib/adapters/registries/client";
import type { UpstreamClients } from "@/lib/services/upstream/ports";
import { registryCredentialsFor, registryMirrorFor } from "@/lib/services/upstream/registry-credentials";
import { recordUpstreamRequest } from "./metrics";

const g = globalThis as unknown as { __driftwatchUpstream?: { key: string; clients: UpstreamClients } };

export function getUpstreamClients(config: Config): UpstreamClients {
  const key = JSON.stringify([config.insecureRegistries, config.githubApiUrl, config.gitlabUrl, config.eolApiUrl, config.eolEnabled, config.dockerHubHosts, config.dockerHubMirror, Object.entries(config.registryCredentials).map(([h, c]) => [h, c.username])]);
  if (g.__driftwatchUpstream?.key === key) return g.__driftwatchUpstream.clients;
  const clients: UpstreamClients = {
    registry: createRegistryClient({ insecureHosts: config.insecureRegistries, onRequest: recordUpstreamRequest, credentials: registryCredentialsFor(config), mirrorOf: registryMirrorFor(config) }),
    forges: createForgeClients({ githubApiUrl: config.githubApiUrl, githubToken: config.githubToken, gitlabUrl: config.gitlabUrl, gitlabToken: config.gitlabToken }),
    eol: createEolClient({ apiUrl: config.eolApiUrl, enabled: config.eolEnabled }),
    charts: createChartIndexClient({ insecureHosts: config.insecureRegistries, onRequest: recordUpstreamRequest }),
  };
  g.__driftwatchUpstream = { key, clients };
  return clients;
}
