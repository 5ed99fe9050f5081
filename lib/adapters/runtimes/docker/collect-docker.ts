// What runs on one Docker Engine: every running container as its own workload.
import type { Workload } from "@/lib/domain/agent-report";
import { mapLimit } from "../http-json";
import { sortWorkloads } from "../workloads";
import { createDockerClient, dockerEndpoint, type DockerClient, type DockerEndpointOptions } from "./engine-client";
import type { ImageInspect } from "./schema";
import { isOrchestrated, isRunningState, toDockerWorkload } from "./transform";

export type DockerCollectOptions = DockerEndpointOptions & {
  /** Target name; default `docker@<engine host name>`. */
  name?: string;
  /** Also report containers started by Swarm, Nomad or a kubelet (normally reported by their own adapters). */
  includeOrchestrated?: boolean;
};

export type DockerObservation = { target: { name: string; kind: "docker" }; workloads: Workload[] };

/** Inspect each image once; null where it went away. */
export async function inspectImages(client: DockerClient, ids: Iterable<string>): Promise<Map<string, ImageInspect | null>> {
  const unique = [...new Set(ids)];
  const found = await mapLimit(unique, 8, (id) => client.inspectImage(id));
  return new Map(unique.map((id, i) => [id, found[i] ?? null]));
}

export async function collectDocker(opts: DockerCollectOptions, client: DockerClient = createDockerClient(dockerEndpoint(opts))): Promise<DockerObservation> {
  const [info, list] = await Promise.all([client.info(), client.listContainers()]);
  const running = list.filter((c) => isRunningState(c.State) && (opts.includeOrchestrated || !isOrchestrated(c.Labels)));
  const inspected = (await mapLimit(running, 8, (c) => client.inspectContainer(c.Id))).filter((c) => c !== null);
  const images = await inspectImages(client, inspected.map((c) => c.Image));
  const workloads = inspected.map((c) => toDockerWorkload(c, images.get(c.Image) ?? null)).filter((w) => w !== null);
  return { target: { name: opts.name ?? `docker@${info.Name}`, kind: "docker" }, workloads: sortWorkloads(workloads) };
}
