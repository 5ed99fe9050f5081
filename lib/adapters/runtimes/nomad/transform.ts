// Pure transform: Nomad allocations to workload rows. Nomad knows the image asked for, not the digest
// pulled: that comes from the node's Docker daemon (containers labelled `com.hashicorp.nomad.alloc_id`,
// named `<task>-<alloc id>`); allocations on other nodes keep a null digest.
import type { Workload } from "@/lib/domain/agent-report";
import { digestForRepository, displayImage, platformString } from "../image-ref";
import { foldReplicas, toIso, type ReplicaObservation } from "../workloads";
import type { Allocation, NomadTask } from "./schema";

export const META = { service: "driftwatch.service", mainTask: "driftwatch.main-task" } as const;
export const LABELS = { allocId: "com.hashicorp.nomad.alloc_id", taskName: "com.hashicorp.nomad.task_name" } as const;

/** What the node's Docker daemon knows about one task's container. */
export type NodeContainer = { image: string; repoDigests: string[]; os?: string; arch?: string; variant?: string };

export const nodeContainerKey = (allocId: string, task: string) => `${allocId}/${task}`;

/** The task a Nomad-started container belongs to: its label, else its `<task>-<alloc id>` name. */
export function taskOfContainer(labels: Record<string, string>, names: readonly string[]): { allocId: string; task: string } | null {
  const allocId = labels[LABELS.allocId];
  if (!allocId) return null;
  const labelled = labels[LABELS.taskName];
  if (labelled) return { allocId, task: labelled };
  const suffix = `-${allocId}`;
  const name = names.map((n) => n.replace(/^\//, "")).find((n) => n.endsWith(suffix));
  return name ? { allocId, task: name.slice(0, -suffix.length) } : null;
}

const isSidecarTask = (t: NomadTask) => !!t.Lifecycle || (t.Kind ?? "").startsWith("connect-");

/** Job with one group: the job is the service; with several, each group is. Meta `driftwatch.service` overrides. */
export function serviceOfGroup(alloc: Allocation, groupName: string, task: NomadTask): string {
  const group = alloc.Job.TaskGroups.find((g) => g.Name === groupName);
  return task.Meta[META.service] || group?.Meta[META.service] || alloc.Job.Meta[META.service] || (alloc.Job.TaskGroups.length > 1 ? groupName : alloc.Job.ID);
}

/**
 * Running, or waiting to restart after a failure (its version stays deployed).
 * A restart moves StartedAt, so a restarted task is dated from its allocation.
 */
function sinceOf(alloc: Allocation, state: { State: string; Restarts: number; StartedAt?: string | null }): string | null {
  const isUp = state.State === "running" || (state.State === "pending" && state.Restarts > 0);
  if (!isUp) return null;
  if (state.Restarts > 0) return toIso(Math.floor(alloc.CreateTime / 1e6));
  return state.StartedAt ? toIso(state.StartedAt) : null;
}

export function allocationReplicas(alloc: Allocation, containers: Map<string, NodeContainer>): ReplicaObservation[] {
  if (alloc.ClientStatus !== "running") return [];
  const group = alloc.Job.TaskGroups.find((g) => g.Name === alloc.TaskGroup);
  if (!group) return [];
  const mains = group.Tasks.filter((t) => !isSidecarTask(t)).map((t) => t.Name);
  const main = group.Meta[META.mainTask] && group.Tasks.some((t) => t.Name === group.Meta[META.mainTask]) ? group.Meta[META.mainTask] : mains[0];
  const out: ReplicaObservation[] = [];
  for (const task of group.Tasks) {
    const state = alloc.TaskStates[task.Name];
    const since = state ? sinceOf(alloc, state) : null;
    const node = containers.get(nodeContainerKey(alloc.ID, task.Name));
    const configured = typeof task.Config.image === "string" ? task.Config.image : null;
    // `${meta.connect.sidecar_image}` and the like are interpolated on the client: only the node knows the result.
    const ref = configured && !configured.includes("${") ? configured : (node?.image ?? null);
    if (!since || !ref) continue;
    out.push({
      service: serviceOfGroup(alloc, group.Name, task),
      container: task.Name,
      main: task.Name === main,
      image: displayImage(ref),
      digest: digestForRepository(ref, node?.repoDigests ?? []),
      platform_digest: null,
      platform: node ? platformString(node.os, node.arch, node.variant) : null,
      since,
      application: alloc.Job.ID,
      isReady: alloc.DeploymentStatus?.Healthy !== false,
    });
  }
  return out;
}

export function nomadWorkloads(allocs: readonly Allocation[], containers: Map<string, NodeContainer>): Workload[] {
  return foldReplicas(allocs.flatMap((a) => allocationReplicas(a, containers)));
}
