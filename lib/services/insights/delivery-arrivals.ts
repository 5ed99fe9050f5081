// The arrivals behind every delivery figure (the statistics, the weekly chart,
// the monthly report), with exact versions worked out as the matrix does: the
// service's repository (its override, else what its main containers run now),
// its upstream tags, and the digest cache.
import { loadArrivalGroups } from "@/lib/db/queries/delivery-arrivals/list-arrival-groups";
import { loadServiceFacts } from "@/lib/db/queries/services/list-service-facts";
import { loadUpstream } from "@/lib/db/queries/upstream/list-upstream-facts";
import { ArrivalIndex } from "@/lib/domain/insights";
import { exactVersionOf } from "@/lib/domain/running-version";
import type { RequestCtx } from "../context";
import { loadEnvironments } from "./fleet";

/**
 * History that ended this long before a window is read too: a version last
 * seen longer ago than that and rolled back to counts as a new arrival.
 */
export const DELIVERY_LOOKBACK_MS = 365 * 86_400_000;

/** First arrivals of every version that could count in windows from `from` to `to`. */
export async function loadArrivalIndex(ctx: RequestCtx, workspaceId: string, { from, to }: { from: Date; to: Date }): Promise<ArrivalIndex> {
  const [environments, groups, facts] = await Promise.all([
    loadEnvironments(ctx, workspaceId),
    loadArrivalGroups(ctx.db, workspaceId, new Date(from.getTime() - DELIVERY_LOOKBACK_MS), to),
    loadServiceFacts(ctx.db, workspaceId),
  ]);
  const repositoryOf = new Map(facts.map((f) => [f.id, f.repository ?? f.runningRepository] as const));
  const upstream = await loadUpstream(ctx.db, workspaceId, [...new Set([...repositoryOf.values()].filter((r): r is string => r !== null))]);
  const index = new ArrivalIndex(environments);
  // The same tag arrives in every environment: its exact version is worked out once.
  const exact = new Map<string, string | null>();
  for (const g of groups) {
    const repository = repositoryOf.get(g.service_id) ?? null;
    const tags = repository === null ? null : (upstream.get(repository)?.tags ?? null);
    for (let i = 0; i < g.tags.length; i++) {
      const tag = g.tags[i] as string;
      const tagVersion = g.versions[i] ?? null;
      const resolvedVersion = g.resolved[i] ?? null;
      const key = `${repository ?? ""}\n${tag}\n${tagVersion ?? ""}\n${resolvedVersion ?? ""}`;
      let version = exact.get(key);
      if (version === undefined) exact.set(key, (version = exactVersionOf({ tag, tagVersion, resolvedVersion }, tags)));
      if (version !== null) index.add(g.service_id, g.environment_id, version, g.since_ms[i] as number);
    }
  }
  return index;
}
