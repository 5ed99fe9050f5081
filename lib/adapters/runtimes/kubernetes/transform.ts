// Pure transform: pods to workload rows per environment. Replicas fold into one row per (service,
// container, image) dated from the earliest ready pod, so a rollout in flight shows two rows; sidecars
// are reported too, with `main: false`.
import type { Workload } from "@/lib/domain/agent-report";
import { digestForRepository, displayImage, parseImageRef } from "../image-ref";
import { foldReplicas, toIso, type ReplicaObservation } from "../workloads";
import type { ContainerStatus, OwnerReference, Pod } from "./schema";

export const ANNOTATIONS = { service: "driftwatch.io/service", mainContainer: "driftwatch.io/main-container" } as const;
export const KNOWN_SIDECARS = new Set(["istio-proxy", "linkerd-proxy", "envoy", "cloud-sql-proxy", "vault-agent"]);
export const SYSTEM_NAMESPACES = new Set(["kube-system", "kube-public", "kube-node-lease"]);

export type Platform = { os: string; arch: string };

export type PodContext = {
  defaultEnvironment: string;
  /** namespace → environment; unmapped namespaces go to `defaultEnvironment`. */
  namespaces: Record<string, string>;
  /** Report kube-system and friends even when they are not mapped. */
  includeSystemNamespaces?: boolean;
  /** The Deployment owning a ReplicaSet (`namespace/name` → name), where known. */
  replicaSetOwners: Map<string, string>;
  nodes: Map<string, Platform>;
};

/** The workload that owns a pod: ReplicaSet → Deployment, else the controller itself. */
export function owningWorkload(pod: Pod, replicaSetOwners: Map<string, string>): string | null {
  const refs = pod.metadata.ownerReferences;
  const ref: OwnerReference | undefined = refs.find((r) => r.controller) ?? refs[0];
  if (!ref) return null;
  if (ref.kind !== "ReplicaSet") return ref.name;
  const known = replicaSetOwners.get(`${pod.metadata.namespace ?? ""}/${ref.name}`);
  if (known !== undefined) return known;
  // Without read access to ReplicaSets: a Deployment names them `<deployment>-<pod-template-hash>`.
  const hash = pod.metadata.labels["pod-template-hash"];
  return hash && ref.name.endsWith(`-${hash}`) ? ref.name.slice(0, -hash.length - 1) : ref.name;
}

export function serviceOf(pod: Pod, replicaSetOwners: Map<string, string>): string {
  const { labels, annotations } = pod.metadata;
  return (
    annotations[ANNOTATIONS.service] ||
    labels[ANNOTATIONS.service] ||
    labels["app.kubernetes.io/name"] ||
    labels["app"] ||
    owningWorkload(pod, replicaSetOwners) ||
    pod.metadata.name
  );
}

/** The annotated main container, else the first container that is not a known sidecar. */
export function mainContainerOf(pod: Pod): string | null {
  const names = pod.spec.containers.map((c) => c.name);
  const annotated = pod.metadata.annotations[ANNOTATIONS.mainContainer];
  if (annotated && names.includes(annotated)) return annotated;
  return names.find((n) => !KNOWN_SIDECARS.has(n)) ?? names[0] ?? null;
}

export function environmentOf(namespace: string, ctx: Pick<PodContext, "defaultEnvironment" | "namespaces" | "includeSystemNamespaces">): string | null {
  const mapped = ctx.namespaces[namespace];
  if (mapped) return mapped;
  if (SYSTEM_NAMESPACES.has(namespace) && !ctx.includeSystemNamespaces) return null;
  return ctx.defaultEnvironment;
}

/**
 * `imageID` is `docker.io/library/nginx@sha256:…` (containerd, CRI-O) or
 * `docker-pullable://nginx@sha256:…` (dockershim): the digest the image was
 * pulled by, for a multi-arch tag the index digest. A bare `sha256:…` is a
 * local image ID, not a registry digest.
 */
export function digestOfImageId(specImage: string, imageID: string): string | null {
  const pinned = parseImageRef(specImage)?.digest;
  if (pinned) return pinned;
  return imageID.includes("@") ? digestForRepository(specImage, [imageID]) : null;
}

/**
 * A running container, or one in crash-loop back-off: it started before, so its
 * version is deployed there, and leaving it out would make history flap with
 * every restart. One that never started (ImagePullBackOff) runs nothing.
 */
const runsItsImage = (s: ContainerStatus) => !!s.state.running || (!!s.state.waiting && s.restartCount > 0 && !!s.lastState.terminated);

const isPodReady = (pod: Pod) => pod.status.conditions.some((c) => c.type === "Ready" && c.status === "True");

/**
 * Since when the container runs its image: its start time; after a restart
 * the API keeps only the latest start, so the pod's start time stands in (the
 * image cannot have changed within one pod's container).
 */
function sinceOf(pod: Pod, status: ContainerStatus): string | null {
  if (status.restartCount > 0 && pod.status.startTime) return toIso(pod.status.startTime);
  const started = status.state.running?.startedAt ?? status.lastState.terminated?.startedAt;
  return started ? toIso(started) : null;
}

/** Replica observations of one pod; empty for pods that are not running. */
export function podReplicas(pod: Pod, ctx: PodContext): { environment: string; replicas: ReplicaObservation[] } | null {
  if (pod.status.phase !== "Running" || pod.metadata.deletionTimestamp) return null;
  const environment = environmentOf(pod.metadata.namespace ?? "default", ctx);
  if (!environment) return null;
  const service = serviceOf(pod, ctx.replicaSetOwners);
  const application = pod.metadata.labels["app.kubernetes.io/part-of"];
  const main = mainContainerOf(pod);
  const podReady = isPodReady(pod);
  const node = pod.spec.nodeName ? ctx.nodes.get(pod.spec.nodeName) : undefined;
  const platform = node ? `${node.os}/${node.arch}` : null;
  const specs = new Map([...pod.spec.containers, ...pod.spec.initContainers].map((c) => [c.name, c]));
  const nativeSidecars = new Set(pod.spec.initContainers.filter((c) => c.restartPolicy === "Always").map((c) => c.name));
  const statuses = [...pod.status.containerStatuses, ...pod.status.initContainerStatuses.filter((s) => nativeSidecars.has(s.name))];
  const replicas: ReplicaObservation[] = [];
  for (const status of statuses) {
    if (!runsItsImage(status)) continue;
    const since = sinceOf(pod, status);
    const specImage = specs.get(status.name)?.image ?? status.image;
    if (!since || !specImage) continue;
    replicas.push({
      service,
      container: status.name,
      main: status.name === main,
      image: displayImage(specImage),
      digest: digestOfImageId(specImage, status.imageID),
      platform_digest: null,
      platform,
      since,
      ...(application ? { application } : {}),
      isReady: podReady && status.ready,
    });
  }
  return { environment, replicas };
}

/** Workload rows per environment. Every environment in `environments` gets an entry, empty or not. */
export function podsToWorkloads(pods: readonly Pod[], ctx: PodContext, environments: Iterable<string> = []): Map<string, Workload[]> {
  const byEnv = new Map<string, ReplicaObservation[]>();
  for (const env of environments) byEnv.set(env, []);
  for (const pod of pods) {
    const seen = podReplicas(pod, ctx);
    if (!seen) continue;
    const list = byEnv.get(seen.environment) ?? [];
    list.push(...seen.replicas);
    byEnv.set(seen.environment, list);
  }
  return new Map([...byEnv].map(([env, replicas]) => [env, foldReplicas(replicas)]));
}
