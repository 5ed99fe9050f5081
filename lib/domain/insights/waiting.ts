// Releases held back by the policy's minimum release age, per service and
// environment: "3.0.0 waits until Nov 30 (minimum age 3d)".
import { createVersionComparator, findOldestInEnv, findWaitingRelease, groupCurrentRuns, listHeldReleases, type CurrentRun, type EnvironmentInfo, type ServiceInput } from "@/lib/domain/drift";

export type WaitingRelease = { service: string; environment: string; running: string; version: string; waitsUntil: Date; minAge: string };

/** For each service and environment (pipeline order) whose oldest running version has a release waiting. */
export function listWaitingReleases(input: {
  services: readonly ServiceInput[];
  environments: readonly EnvironmentInfo[];
  current: readonly CurrentRun[];
  now: Date;
}): WaitingRelease[] {
  const aged = input.services.filter((s) => s.policy.min_release_age !== undefined && s.upstream !== null);
  if (aged.length === 0) return [];
  const ids = new Set(aged.map((s) => s.id));
  const runs = groupCurrentRuns(input.current.filter((r) => ids.has(r.serviceId)));
  const compare = createVersionComparator();
  const out: WaitingRelease[] = [];
  for (const service of [...aged].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const byEnv = runs.get(service.id);
    if (byEnv === undefined) continue;
    for (const env of input.environments) {
      const rows = byEnv.get(env.id);
      const running = rows === undefined ? null : findOldestInEnv(rows, compare);
      if (running === null) continue;
      const held = findWaitingRelease(service, running.version, input.now);
      if (held !== null) out.push({ service: service.name, environment: env.name, running: running.version, version: held.version, waitsUntil: held.waitsUntil, minAge: held.minAge });
    }
  }
  return out;
}

/**
 * Per service name, the newer releases the minimum release age holds back from any environment it
 * runs in (the API's `upstream.waiting`), oldest first.
 */
export function listHeldByService(input: { services: readonly ServiceInput[]; current: readonly CurrentRun[]; now: Date }): Map<string, { version: string; until: Date }[]> {
  const out = new Map<string, { version: string; until: Date }[]>();
  const aged = input.services.filter((s) => s.policy.min_release_age !== undefined && s.upstream !== null);
  if (aged.length === 0) return out;
  const ids = new Set(aged.map((s) => s.id));
  const runs = groupCurrentRuns(input.current.filter((r) => ids.has(r.serviceId)));
  const compare = createVersionComparator();
  for (const service of aged) {
    const held = new Map<string, Date>();
    for (const rows of runs.get(service.id)?.values() ?? []) {
      const running = findOldestInEnv(rows, compare);
      if (running !== null) for (const h of listHeldReleases(service, running.version, input.now)) held.set(h.version, h.until);
    }
    if (held.size) out.set(service.name, [...held].sort(([a], [b]) => compare(a, b) ?? 0).map(([version, until]) => ({ version, until })));
  }
  return out;
}
