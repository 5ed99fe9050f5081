// Folding per-replica observations into workload rows: ten pods of a Deployment are one row per
// (service, container, image), a rollout in flight two. `since` is the earliest start among ready
// replicas, so a row does not move when one replica restarts or the workload scales out.
import type { Workload } from "@/lib/domain/agent-report";

export type ReplicaObservation = Workload & { isReady: boolean };

const keyOf = (w: Workload) => JSON.stringify([w.service, w.container, w.image]);

/**
 * Replicas of one image split by digest only where digests really differ (a
 * moving tag re-pulled); a replica whose digest is unknown (its node's daemon
 * was not asked) joins the one known digest rather than making a row of its own.
 */
function splitByDigest(group: ReplicaObservation[]): ReplicaObservation[][] {
  const known = [...new Set(group.map((r) => r.digest).filter((d) => d !== null))];
  if (known.length <= 1) return [group.map((r) => ({ ...r, digest: known[0] ?? null }))];
  const byDigest = new Map<string | null, ReplicaObservation[]>();
  for (const r of group) byDigest.set(r.digest, [...(byDigest.get(r.digest) ?? []), r]);
  return [...byDigest.values()];
}

function toRow(group: ReplicaObservation[]): Workload | null {
  const ready = group.filter((r) => r.isReady);
  const basis = ready.length > 0 ? ready : group;
  const since = basis.map((r) => r.since).sort((a, b) => Date.parse(a) - Date.parse(b))[0];
  const first = group[0];
  if (!first || !since) return null;
  // Mixed-architecture (or partly unknown) replicas run the same version; their platform facts are then left open.
  const platforms = new Set(group.map((r) => r.platform));
  const platformDigests = new Set(group.map((r) => r.platform_digest));
  const { isReady: _ready, ...base } = first;
  return {
    ...base,
    main: group.some((r) => r.main),
    since,
    platform: platforms.size === 1 ? first.platform : null,
    platform_digest: platformDigests.size === 1 ? first.platform_digest : null,
  };
}

export function foldReplicas(replicas: readonly ReplicaObservation[]): Workload[] {
  const groups = new Map<string, ReplicaObservation[]>();
  for (const r of replicas) {
    const key = keyOf(r);
    const group = groups.get(key);
    if (group) group.push(r);
    else groups.set(key, [r]);
  }
  const rows = [...groups.values()].flatMap(splitByDigest).map(toRow).filter((r) => r !== null);
  return sortWorkloads(rows);
}

/** A stable order, so equal states serialise (and hash) equally. */
export function sortWorkloads(rows: Workload[]): Workload[] {
  return [...rows].sort(
    (a, b) =>
      a.service.localeCompare(b.service) ||
      a.container.localeCompare(b.container) ||
      a.image.localeCompare(b.image) ||
      (a.digest ?? "").localeCompare(b.digest ?? "") ||
      a.since.localeCompare(b.since),
  );
}

/** RFC 3339 in UTC with milliseconds; Docker's nanosecond strings are cut to what Date keeps. */
export function toIso(value: string | number | Date): string | null {
  const d = value instanceof Date ? value : new Date(value);
  const t = d.getTime();
  // Docker reports never-started containers as year 1.
  if (!Number.isFinite(t) || t <= 0) return null;
  return d.toISOString();
}
