// Releases held back by the policy's minimum release age, per service and
// environment: "3.0.0 waits until Nov 30 (minimum age 3d)".
import { createVersionComparator, findOldestInEnv, findWaitingRelease, groupCurrentRuns, type CurrentRun, type EnvironmentInfo, type ServiceInput } from "@/lib/domain/drift";

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
