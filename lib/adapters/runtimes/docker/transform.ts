// Pure transform: a running container (and its image) to a workload row.
// `digest` is the RepoDigest the image was pulled by: for a multi-arch tag the index digest, what a
// registry HEAD on the tag returns. The platform manifest digest is only known from the containerd
// image store (`ImageManifestDescriptor`) or a label; otherwise it stays null rather than guessed.
import type { Workload } from "@/lib/domain/agent-report";
import { digestForRepository, displayImage, isDigest, platformString } from "../image-ref";
import { toIso } from "../workloads";
import type { ContainerInspect, ImageInspect } from "./schema";

export const LABELS = {
  service: "driftwatch.service",
  platformDigest: "driftwatch.platform-digest",
  composeService: "com.docker.compose.service",
  composeProject: "com.docker.compose.project",
} as const;

/** Containers started by an orchestrator are reported by that orchestrator's adapter. */
export const ORCHESTRATOR_LABELS = ["com.docker.swarm.task.id", "com.hashicorp.nomad.alloc_id", "io.kubernetes.pod.name"] as const;

export const isOrchestrated = (labels: Record<string, string>): boolean => ORCHESTRATOR_LABELS.some((l) => l in labels);

/**
 * A running container, or one its restart policy is restarting (crash loop):
 * its version is deployed, and dropping it between restarts would make history flap.
 */
export const isRunningState = (status: string) => status === "running" || status === "restarting";

/** Workload row for a running container; null for one that is not running. */
export function toDockerWorkload(container: ContainerInspect, image: ImageInspect | null): Workload | null {
  if (!isRunningState(container.State.Status)) return null;
  const labels = container.Config.Labels;
  const name = container.Name.replace(/^\//, "");
  const ref = container.Config.Image || container.Image;
  const digest = digestForRepository(ref, image?.RepoDigests ?? []);
  const descriptor = container.ImageManifestDescriptor ?? null;
  const labelled = labels[LABELS.platformDigest];
  const platformDigest = isDigest(labelled)
    ? labelled
    : descriptor && isDigest(descriptor.digest) && descriptor.digest !== digest
      ? descriptor.digest
      : null;
  const platform = descriptor?.platform
    ? platformString(descriptor.platform.os, descriptor.platform.architecture, descriptor.platform.variant)
    : platformString(image?.Os, image?.Architecture, image?.Variant);
  // A restart resets StartedAt, but the image was fixed when the container was created.
  const since = toIso(container.RestartCount > 0 ? container.Created : container.State.StartedAt) ?? toIso(container.Created);
  if (!since) return null;
  const application = labels[LABELS.composeProject];
  return {
    service: labels[LABELS.service] || labels[LABELS.composeService] || name,
    container: name,
    main: true,
    image: displayImage(ref),
    digest,
    platform_digest: platformDigest,
    platform,
    since,
    ...(application ? { application } : {}),
  };
}
