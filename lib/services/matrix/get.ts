// The matrix: services × environments in pipeline order, each cell what runs
// (or, with only Compose files, what Git declares), with drift and end of life.
import { serviceKindOf, uncheckableReason } from "@/lib/domain/charts";
import type { z } from "zod";
import type { matrixQuerySchema, matrixBodySchema } from "@/lib/services/matrix/schemas";
import { listTargetReports } from "@/lib/db/queries/targets/list-target-reports";
import { nextQuietAt, targetStateOf, type TargetState } from "@/lib/domain/quiet";
import { listActiveDriftCells } from "@/lib/db/queries/drifts/list-active-drift-cells";
import type { CurrentRun } from "@/lib/domain/drift";
import { effectivePolicy, type DriftKind, type Policy } from "@/lib/domain/policy";
import { displayTag } from "@/lib/domain/running-version";
import { compareTags, selectNewest } from "@/lib/domain/versions";
import { workspaceOf, type RequestCtx } from "../context";
import { nextUpstreamStaleAt, upstreamStatusOf } from "../upstream/status";
import { INSIGHTS_CACHE_TTL_MS } from "../cache/insights-cache";
import { loadEolForRuns, type EolLookup } from "../eol/status";
import { cachedInsight } from "../cache/insights-cache";
import { cachedDriftInputs } from "../insights/fleet";

type Matrix = z.infer<typeof matrixBodySchema>;
type Cell = Matrix["services"][number]["cells"][number];

/** The oldest of several versions (the one a move replaces everywhere); unknown versions sort first. */
export function oldestRun<T extends { version: string | null; tag: string }>(runs: T[]): T | undefined {
  return [...runs].sort((a, b) => {
    if (a.version === null || b.version === null) return a.version === null ? (b.version === null ? 0 : -1) : 1;
    return compareTags(a.version, b.version) ?? 0;
  })[0];
}

/** The whole matrix, and each service's active drift kinds (in any environment) for the `kind` filter. */
type WholeMatrix = {
  matrix: Matrix; kinds: Map<string, Set<DriftKind>>; upstreamStaleAt: number | null;
  /** Agent targets that are quiet now, and when the next one turns quiet by the clock. */
  quietTargets: number; quietAt: number | null;
};

/**
 * Every query selects from the workspace's whole matrix, computed once per
 * snapshot and shared: a page of the matrix, a filter, a service's detail page
 * and its badge read the same result rather than each loading the workspace.
 */
export async function getMatrix({ ctx, input: query }: { ctx: RequestCtx; input: z.infer<typeof matrixQuerySchema> }): Promise<Matrix> {
  const workspaceId = workspaceOf(ctx.actor);
  const whole = await getWholeMatrix(ctx, workspaceId);
  const { team, environment, kind, q, limit, offset = 0 } = query;
  if (!team && !environment && !kind && !q && limit === undefined && offset === 0) return whole.matrix;
  let services = whole.matrix.services;
  if (team) services = services.filter((s) => s.team === team);
  if (q) services = services.filter((s) => s.name.toLowerCase().includes(q.toLowerCase()));
  // A service runs (or is declared) in an environment exactly when it has a cell there.
  if (environment) services = services.filter((s) => s.cells.some((c) => c.environment === environment));
  if (kind) services = services.filter((s) => whole.kinds.get(s.name)?.has(kind) === true);
  return { environments: whole.matrix.environments, services: services.slice(offset, limit === undefined ? undefined : offset + limit), total: services.length };
}

/** The workspace's whole matrix (cached per snapshot), with its quiet targets. */
export async function getWholeMatrix(ctx: RequestCtx, workspaceId: string): Promise<WholeMatrix> {
  // Upstream states turn stale, and targets quiet, with the clock alone: recompute then, not only after the TTL.
  const later = (t: number | null, at: number) => (t !== null && t > at ? t : Number.POSITIVE_INFINITY);
  return cachedInsight(ctx, `${workspaceId}:matrix`, () => computeMatrix(ctx, workspaceId), {
    validUntil: (w, at) => Math.min(at + INSIGHTS_CACHE_TTL_MS, later(w.upstreamStaleAt, at), later(w.quietAt, at)),
  });
}

/**
 * From the drift inputs the updates list and promotions share (one compact read of the
 * workspace, cached per snapshot): the services, what runs now with exact versions, and the
 * upstream tags. Only the active drifts and end-of-life states are read here.
 */
async function computeMatrix(ctx: RequestCtx, workspaceId: string): Promise<WholeMatrix> {
  const [inputs, drifts, targetReports] = await Promise.all([
    cachedDriftInputs(ctx, workspaceId),
    listActiveDriftCells(ctx.db, workspaceId),
    listTargetReports(ctx.db, workspaceId),
  ]);
  // Compose-in-Git targets declare rather than report: the server reads them, they are never quiet.
  const agentTargets = targetReports.filter((t) => t.kind !== "compose_git");
  const seenBy = new Map<string, { last_seen_at: string | null; state: TargetState }>(targetReports.map((t) => [t.id, {
    last_seen_at: t.lastReportAt?.toISOString() ?? null,
    state: t.kind === "compose_git" ? "reporting" : targetStateOf(t.lastReportAt, ctx.now, ctx.config.quietAfterMs),
  }] as const));
  const { environments, facts } = inputs;
  const runsBy = new Map<string, CurrentRun[]>();
  for (const r of inputs.current) {
    const list = runsBy.get(r.serviceId);
    if (list) list.push(r);
    else runsBy.set(r.serviceId, [r]);
  }
  const nameOf = new Map(facts.map((f) => [f.id, f.name] as const));
  const driftsBy = new Map<string, DriftKind[]>();
  const detailsBy = new Map<string, Cell["drift_details"]>();
  const kinds = new Map<string, Set<DriftKind>>();
  for (const d of drifts) {
    const key = `${d.serviceId}:${d.environmentId}`;
    driftsBy.set(key, [...(driftsBy.get(key) ?? []), d.kind]);
    if (d.state !== "resolved") {
      const detail = { kind: d.kind, state: d.state, opened_at: d.openedAt.toISOString(), announced_at: d.announcedAt?.toISOString() ?? null, running: d.running, expected: d.expected };
      detailsBy.set(key, [...(detailsBy.get(key) ?? []), detail]);
    }
    const name = nameOf.get(d.serviceId);
    if (name === undefined) continue;
    let serviceKinds = kinds.get(name);
    if (!serviceKinds) kinds.set(name, (serviceKinds = new Set()));
    serviceKinds.add(d.kind);
  }
  const eol: EolLookup = await loadEolForRuns(ctx, facts);

  const services = facts.map((s) => {
    const repository = s.repository ?? s.runningRepository;
    const tags = inputs.upstreamTags.get(s.id) ?? null;
    const serviceRuns = runsBy.get(s.id) ?? [];
    const cells: Cell[] = [];
    for (const env of environments) {
      const here = serviceRuns.filter((r) => r.environmentId === env.id);
      if (here.length === 0) continue;
      const running = here.filter((r) => !r.declared);
      const shown = running.length ? running : here;
      const oldest = oldestRun(shown)!;
      const seen = running.map((r) => seenBy.get(r.targetId));
      const lastSeen = seen.map((t) => t?.last_seen_at ?? null).filter((t): t is string => t !== null).sort().at(-1) ?? null;
      cells.push({
        environment: env.name,
        tag: oldest.tag,
        version: oldest.version,
        display: displayTag(oldest.tag, oldest.version),
        declared: running.length === 0,
        targets: here.map((r) => ({
          name: r.targetName, tag: r.tag, version: r.version, digest: r.digest, since: r.since.toISOString(), declared: r.declared,
          ...(seenBy.get(r.targetId) ?? { last_seen_at: null, state: "quiet" as const }),
        })),
        quiet: running.length > 0 && seen.every((t) => t?.state !== "reporting"),
        last_seen_at: lastSeen,
        drifts: driftsBy.get(`${s.id}:${env.id}`) ?? [],
        drift_details: detailsBy.get(`${s.id}:${env.id}`) ?? [],
        eol: oldest.version ? eol(s.id, oldest.version) : null,
      });
    }
    // Upstream newest: the newest release of the line of the newest version running anywhere.
    const versions = serviceRuns.map((r) => r.version).filter((v): v is string => v !== null);
    const newestRunning = versions.sort((a, b) => compareTags(b, a) ?? 0)[0] ?? null;
    let newest: string | null = null;
    if (tags !== null && newestRunning) {
      const policy = effectivePolicy((s.policy ?? null) as Policy | null);
      const result = selectNewest({ running: newestRunning, tags, policy: { tag_filter: policy.tag_filter, prerelease: policy.prerelease } });
      newest = result.newest ?? (tags.includes(newestRunning) ? newestRunning : null);
    }
    const status = upstreamStatusOf(s.upstream, ctx.now);
    return {
      name: s.name,
      kind: serviceKindOf(s.name),
      team: s.team,
      application: s.application,
      upstream: {
        repository, newest, checked_at: s.upstream?.checkedAt?.toISOString() ?? null, checked_by: s.upstream?.checkedBy ?? null,
        state: status.state, error: status.error ?? (repository ? uncheckableReason(repository) : null),
      },
      cells,
    };
  });
  const matrix = { environments: environments.map((e) => ({ name: e.name, position: e.position, production: e.production })), services, total: services.length };
  return {
    matrix, kinds, upstreamStaleAt: nextUpstreamStaleAt(facts.map((f) => f.upstream)),
    quietTargets: agentTargets.filter((t) => seenBy.get(t.id)?.state === "quiet").length,
    quietAt: nextQuietAt(agentTargets.map((t) => t.lastReportAt), ctx.now, ctx.config.quietAfterMs),
  };
}
