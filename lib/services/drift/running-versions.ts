// What runs now, as acknowledgements see it: exact versions per service and
// environment, worked out as the matrix does. Read for a few services only
// (those with acknowledgements), so lists stay cheap.
import type { Db } from "@/lib/db/client";
import { loadCurrentRuns } from "@/lib/db/queries/current-runs";
import { loadServiceFacts } from "@/lib/db/queries/services";
import { loadUpstream } from "@/lib/db/queries/upstream";
import { indexRunningVersions, type CurrentRun, type RunningVersions } from "@/lib/domain/drift";
import { exactVersionOf } from "@/lib/domain/running-version";

export async function loadRunningVersions(db: Db, workspaceId: string, serviceIds: readonly string[]): Promise<RunningVersions> {
  if (serviceIds.length === 0) return new Map();
  const ids = [...new Set(serviceIds)];
  const [facts, rows] = await Promise.all([
    db.service.findMany({ where: { workspaceId, id: { in: ids } }, select: { id: true, name: true } }),
    loadCurrentRuns(db, workspaceId, { serviceIds: ids }),
  ]);
  const full = await loadServiceFacts(db, workspaceId, facts.map((f) => f.name));
  const repositoryBy = new Map(full.map((f) => [f.id, f.repository ?? f.runningRepository] as const));
  const keys = [...new Set([...repositoryBy.values()].filter((k): k is string => !!k))];
  const upstream = await loadUpstream(db, workspaceId, keys);
  const current: CurrentRun[] = rows.map((r) => {
    const key = repositoryBy.get(r.serviceId);
    const tags = key ? (upstream.get(key)?.tags ?? null) : null;
    return {
      serviceId: r.serviceId, environmentId: r.environmentId, targetId: r.targetId, targetName: r.targetName,
      tag: r.tag, version: exactVersionOf(r, tags), digest: r.digest, since: r.since, declared: r.declared,
    };
  });
  return indexRunningVersions(current);
}
