// What the updates list and promotions read: the drift inputs (environments,
// services with the policy in effect, upstream tags, end-of-life cycles, what
// runs now with exact versions as the matrix shows them) plus, per service,
// where its release notes come from.
import { listEnvironmentInfos } from "@/lib/db/queries/environments/list-environment-infos";
import { parseChartKey } from "@/lib/domain/charts";
import type { CurrentRun, EnvironmentInfo, ServiceInput } from "@/lib/domain/drift";
import type { Policy } from "@/lib/domain/policy";
import type { UpstreamState } from "@/lib/domain/upstream";
import { catalogFor } from "../services/catalog-lookup";
import type { RequestCtx } from "../context";
import { describeService } from "../services/describe";
import { loadDriftInputs, type DriftInputs } from "../drift/load-inputs";
import { cachedInsight } from "../cache/insights-cache";
import type { ReleaseSource } from "./releases";
import { upstreamStatusOf } from "../upstream/status";

export type Fleet = {
  environments: EnvironmentInfo[];
  /** After the filter; lines and promotions of other services are not built. */
  services: ServiceInput[];
  byName: Map<string, ServiceInput>;
  releaseSources: Map<string, ReleaseSource>;
  current: CurrentRun[];
  /** serviceId → what Driftwatch knows of its upstream. */
  upstreamStates: Map<string, UpstreamState>;
};

export type FleetFilter = { team?: string | undefined; application?: string | undefined };

export async function loadEnvironments(ctx: RequestCtx, workspaceId: string): Promise<EnvironmentInfo[]> {
  return listEnvironmentInfos(ctx.db, workspaceId);
}

/**
 * The workspace's drift inputs, shared by the matrix, the updates list and promotions (and their
 * filters) while nothing changes. Read against a snapshot of its own, not the request's: it runs
 * inside those insights' computations, which are labelled with a snapshot read after the
 * request's, so their inputs must be at least as new as that label.
 */
export function cachedDriftInputs(ctx: RequestCtx, workspaceId: string): Promise<DriftInputs> {
  return cachedInsight({ db: ctx.db, now: ctx.now }, `${workspaceId}:drift-inputs`, () => loadDriftInputs(ctx.db, ctx.config, workspaceId, ctx.now));
}

export async function loadFleet(ctx: RequestCtx, workspaceId: string, filter: FleetFilter = {}): Promise<Fleet> {
  const inputs = await cachedDriftInputs(ctx, workspaceId);
  const isSelected = (s: { team: string | null; application: string | null }) =>
    (filter.team === undefined || s.team === filter.team) && (filter.application === undefined || s.application === filter.application);
  const services = inputs.services.filter(isSelected);
  const selected = new Set(services.map((s) => s.id));

  const releaseSources = new Map<string, ReleaseSource>();
  const upstreamStates = new Map<string, UpstreamState>();
  for (const facts of inputs.facts) {
    if (!selected.has(facts.id)) continue;
    upstreamStates.set(facts.id, upstreamStatusOf(facts.upstream, ctx.now).state);
    const repository = facts.repository ?? facts.runningRepository;
    const own = (facts.policy ?? null) as Policy | null;
    const catalog = repository === null ? null : catalogFor(repository);
    const { release_source: source } = describeService(facts, { gitlabUrl: ctx.config.gitlabUrl, now: ctx.now });
    releaseSources.set(facts.id, {
      forge: source.kind === null || source.repository === null ? null : { kind: source.kind, repository: source.repository },
      tagPrefix: own?.release_tag_prefix ?? catalog?.release_tag_prefix ?? null,
      changelog: own?.changelog ?? catalog?.changelog ?? null,
      datedByIndex: repository !== null && parseChartKey(repository)?.kind === "index",
    });
  }
  return {
    environments: inputs.environments,
    services,
    byName: new Map(services.map((s) => [s.name, s] as const)),
    releaseSources,
    current: inputs.current.filter((r) => selected.has(r.serviceId)),
    upstreamStates,
  };
}
