// Pure transform: Swarm services and their running tasks to workload rows. Each task carries the
// reference the manager pinned (`name:tag@sha256:<index digest>`); during a rolling update both images
// run, one row each, dated from the earliest running task of that image (failed tasks are replaced).
import type { Workload } from "@/lib/domain/agent-report";
import { displayImage, parseImageRef, platformString } from "../image-ref";
import { foldReplicas, toIso, type ReplicaObservation } from "../workloads";
import type { SwarmService, SwarmTask } from "./schema";

export const STACK_NAMESPACE = "com.docker.stack.namespace";
export const SERVICE_LABEL = "driftwatch.service";

/** `shop_web` in stack `shop` is service `web` of application `shop`, as Compose names it. */
export function serviceNameOf(service: SwarmService): { service: string; application?: string } {
  const { Name, Labels } = service.Spec;
  const stack = Labels[STACK_NAMESPACE] ?? service.Spec.TaskTemplate.ContainerSpec?.Labels[STACK_NAMESPACE];
  const short = stack && Name.startsWith(`${stack}_`) ? Name.slice(stack.length + 1) : Name;
  return { service: Labels[SERVICE_LABEL] || short, ...(stack ? { application: stack } : {}) };
}

export function swarmWorkloads(services: readonly SwarmService[], tasks: readonly SwarmTask[], platforms: Map<string, string | null>): Workload[] {
  const byId = new Map(services.map((s) => [s.ID, s]));
  const replicas: ReplicaObservation[] = [];
  for (const task of tasks) {
    const service = byId.get(task.ServiceID);
    const ref = task.Spec.ContainerSpec?.Image ?? service?.Spec.TaskTemplate.ContainerSpec?.Image;
    const since = toIso(task.Status.Timestamp);
    if (!service || !ref || !since || task.Status.State !== "running") continue;
    replicas.push({
      ...serviceNameOf(service),
      container: service.Spec.Name,
      main: true,
      image: displayImage(ref),
      digest: parseImageRef(ref)?.digest ?? null,
      platform_digest: null,
      platform: (task.NodeID && platforms.get(task.NodeID)) ?? null,
      since,
      isReady: true,
    });
  }
  return foldReplicas(replicas);
}

export const nodePlatform = (os?: string, arch?: string) => platformString(os, arch);
