// One registry, forge and end-of-life client per process: rate-limit and
// back-off state per host lives in them, so every check shares it.
import type { Config } from "@/lib/config";
import { createEolClient } from "@/lib/adapters/eol";
import { createForgeClients } from "@/lib/adapters/forges";
import { createRegistryClient } from "@/lib/adapters/registries/client";
import type { UpstreamClients } from "@/lib/services/upstream/ports";
import { recordUpstreamRequest } from "./metrics";

export type { UpstreamClients };

const g = globalThis as unknown as { __driftwatchUpstream?: { key: string; clients: UpstreamClients } };

export function getUpstreamClients(config: Config): UpstreamClients {
  const key = JSON.stringify([config.insecureRegistries, config.githubApiUrl, config.gitlabUrl, config.eolApiUrl, config.eolEnabled]);
  if (g.__driftwatchUpstream?.key === key) return g.__driftwatchUpstream.clients;
  const clients: UpstreamClients = {
    registry: createRegistryClient({ insecureHosts: config.insecureRegistries, onRequest: recordUpstreamRequest }),
    forges: createForgeClients({ githubApiUrl: config.githubApiUrl, githubToken: config.githubToken, gitlabUrl: config.gitlabUrl, gitlabToken: config.gitlabToken }),
    eol: createEolClient({ apiUrl: config.eolApiUrl, enabled: config.eolEnabled }),
  };
  g.__driftwatchUpstream = { key, clients };
  return clients;
}
