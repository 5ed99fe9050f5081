// Is a Docker Engine readable here, and which one: a ping with a short timeout, then its /info.
import { AppError } from "@/lib/domain/errors";
import { httpRequest } from "../http-json";
import { createDockerClient, dockerEndpoint, type DockerEndpointOptions } from "./engine-client";

export type DockerEngineIdentity = {
  /** The daemon's ID; the name stands in where an engine reports none. */
  id: string;
  name: string;
  /** An active Swarm manager: its services are collected as a `swarm` target too. */
  swarmManager: boolean;
};

/** Where the endpoint points, for messages: `unix:///var/run/docker.sock`, `tcp://host:2375`. */
export function describeDockerEndpoint(opts: DockerEndpointOptions): string {
  const endpoint = dockerEndpoint(opts);
  return endpoint.socketPath ? `unix://${endpoint.socketPath}` : endpoint.baseUrl;
}

/** The engine at `opts`; throws an AppError saying why when it cannot be read. */
export async function probeDockerEngine(opts: DockerEndpointOptions): Promise<DockerEngineIdentity> {
  const endpoint = dockerEndpoint({ ...opts, timeoutMs: opts.timeoutMs ?? 2_000 });
  // A kept-alive connection the engine closed meanwhile resets once: ask again on a new one.
  const ping = await httpRequest(endpoint, "/_ping").catch((err: unknown) => {
    if ((err as { cause?: { code?: string } }).cause?.code === "ECONNRESET") return httpRequest(endpoint, "/_ping");
    throw err;
  });
  if (ping.status !== 200) {
    const why = ping.status === 401 || ping.status === 403 ? "refused access" : `answered ${ping.status}`;
    throw new AppError("unavailable", `Docker Engine at ${describeDockerEndpoint(opts)} ${why} to /_ping.`);
  }
  const info = await createDockerClient(endpoint).info();
  const swarmManager = info.Swarm?.LocalNodeState === "active" && info.Swarm.ControlAvailable === true;
  return { id: info.ID || `name:${info.Name}`, name: info.Name, swarmManager };
}
