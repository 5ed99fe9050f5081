// What runs in one Docker Swarm, read from a manager's Engine API.
import type { Workload } from "@/lib/domain/agent-report";
import { AppError } from "@/lib/domain/errors";
import { createDockerClient, dockerEndpoint, type DockerClient, type DockerEndpointOptions } from "../docker/engine-client";
import { swarmNodeListSchema, swarmServiceListSchema, swarmTaskListSchema, type SwarmTask } from "./schema";
import { nodePlatform, swarmWorkloads } from "./transform";

export type SwarmCollectOptions = DockerEndpointOptions & {
  /** Target name; default `swarm@<manager host name>`. */
  name?: string;
};

export type SwarmObservation = { target: { name: string; kind: "swarm" }; workloads: Workload[] };

// Keeps the filter query of one request well below common URL length limits.
const SERVICES_PER_REQUEST = 50;

export async function collectSwarm(opts: SwarmCollectOptions, client: DockerClient = createDockerClient(dockerEndpoint(opts, "Docker Swarm manager"))): Promise<SwarmObservation> {
  const info = await client.info();
  if (info.Swarm?.LocalNodeState !== "active" || !info.Swarm.ControlAvailable) {
    throw new AppError("invalid_input", `${info.Name} is not a Swarm manager; point the agent at a manager node.`);
  }
  const services = await client.get("/services", swarmServiceListSchema);
  const tasks: SwarmTask[] = [];
  for (let i = 0; i < services.length; i += SERVICES_PER_REQUEST) {
    const ids = services.slice(i, i + SERVICES_PER_REQUEST).map((s) => s.ID);
    const filters = encodeURIComponent(JSON.stringify({ service: ids, "desired-state": ["running"] }));
    tasks.push(...(await client.get(`/tasks?filters=${filters}`, swarmTaskListSchema)));
  }
  const nodes = tasks.length ? await client.get("/nodes", swarmNodeListSchema) : [];
  const platforms = new Map(nodes.map((n) => [n.ID, nodePlatform(n.Description?.Platform?.OS, n.Description?.Platform?.Architecture)]));
  return { target: { name: opts.name ?? `swarm@${info.Name}`, kind: "swarm" }, workloads: swarmWorkloads(services, tasks, platforms) };
}
