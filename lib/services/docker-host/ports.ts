// What watching the server's own Docker host needs from outside: the engine this process can read,
// built once per process at the edge (lib/server/docker-host.ts) from DOCKER_HOST.
import type { DockerEndpointOptions } from "@/lib/adapters/runtimes/docker/engine-client";
import type { DockerEngineIdentity } from "@/lib/adapters/runtimes/docker/probe-engine";

export type DockerHostProbe =
  | { readable: true; address: string; engine: DockerEngineIdentity; checkedAt: Date }
  | { readable: false; address: string | null; reason: string; checkedAt: Date };

export type DockerHost = {
  /** Where the engine is read; null when DOCKER_HOST names nothing this server can speak to. */
  endpoint: DockerEndpointOptions | null;
  /** The last probe when it is younger than `maxAgeMs` (default: a few seconds), else a new one. */
  probe: (opts?: { maxAgeMs?: number }) => Promise<DockerHostProbe>;
};
