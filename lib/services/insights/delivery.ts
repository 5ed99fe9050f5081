// Delivery statistics (spec.md "Delivery"): versions arriving per environment
// and lead times between neighbouring environments, from what ran when. The
// database folds history to first arrivals; the domain does the counting.
import type { z } from "zod";
import { DEFAULT_DELIVERY_WINDOW, deliveryWindowMs, type deliverySchema } from "@/lib/api/schemas/insights";
import { foldedArrivalsSql } from "@/lib/db/queries/delivery-arrivals";
import { loadServiceFacts } from "@/lib/db/queries/services";
import { loadUpstream } from "@/lib/db/queries/upstream";
import type { HistoryRun } from "@/lib/domain/drift";
import { formatDuration } from "@/lib/domain/duration";
import { invalid } from "@/lib/domain/errors";
import { computeDelivery } from "@/lib/domain/insights";
import { exactVersionOf } from "@/lib/domain/running-version";
import { requireRole, workspaceOf, type Ctx } from "../context";
import { cachedInsight } from "./cache";
import { loadEnvironments } from "./fleet";

export type DeliveryOut = z.infer<typeof deliverySchema>;

/**
 * History that ended this long before the window is not read: a version last
 * seen longer ago than that and rolled back to would count as a new arrival.
 */
export const DELIVERY_LOOKBACK_MS = 365 * 86_400_000;

type ArrivalRow = { service_id: string; environment_id: string; tag: string; version: string | null; resolved_tag: string | null; since: Date };

export async function getDelivery({ ctx, window = DEFAULT_DELIVERY_WINDOW }: { ctx: Ctx; window?: string }): Promise<DeliveryOut> {
  requireRole(ctx.actor, "viewer");
  const workspaceId = workspaceOf(ctx.actor);
  const ms = deliveryWindowMs(window);
  if (ms === null) throw invalid("/query/window", "must be a duration such as 7d, 30d or 12w, at most 365d");
  return cachedInsight(ctx, `${workspaceId}:delivery:${ms}`, () => computeDeliveryOut(ctx, workspaceId, ms));
}

async function computeDeliveryOut(ctx: Ctx, workspaceId: string, ms: number): Promise<DeliveryOut> {
  const to = ctx.now();
  const from = new Date(to.getTime() - ms);

  const [environments, arrivals, repositories] = await Promise.all([
    loadEnvironments(ctx, workspaceId),
    loadFirstArrivals(ctx, workspaceId, new Date(from.getTime() - DELIVERY_LOOKBACK_MS), to),
    loadServiceRepositories(ctx, workspaceId),
  ]);
  const upstream = await loadUpstream(ctx.db, workspaceId, [...new Set(repositories.values())]);

  // The same tag arrives in every environment: work its exact version out once.
  const exact = new Map<string, string | null>();
  const history: HistoryRun[] = [];
  for (const a of arrivals) {
    const repository = repositories.get(a.service_id);
    const key = `${repository ?? ""}\n${a.tag}\n${a.version ?? ""}\n${a.resolved_tag ?? ""}`;
    let version = exact.get(key);
    if (version === undefined) {
      const tags = repository === undefined ? null : (upstream.get(repository)?.tags ?? null);
      version = exactVersionOf({ tag: a.tag, tagVersion: a.version, resolvedVersion: a.resolved_tag }, tags);
      exact.set(key, version);
    }
    if (version === null) continue;
    history.push({
      serviceId: a.service_id, environmentId: a.environment_id, targetId: "", targetName: "", tag: a.tag, version,
      digest: null, since: a.since, declared: false, to: null,
    });
  }
  const stats = computeDelivery({ environments, history, window: { from, to } });
  return { window: formatDuration(ms), from: from.toISOString(), to: to.toISOString(), ...stats };
}

/**
 * The first time each tag (and resolved version) ran per service and
 * environment: computeDelivery only needs the earliest row of each version.
 * Runtime rows of main containers only; declarations are not deploys. Deploys
 * that retention folded out of history come along (foldedArrivalsSql).
 */
async function loadFirstArrivals(ctx: Ctx, workspaceId: string, since: Date, to: Date): Promise<ArrivalRow[]> {
  return ctx.db.$queryRaw<ArrivalRow[]>`
    WITH firsts AS (
      SELECT r.service_id, r.environment_id, r.repository, r.tag, r.version, r.digest, r.platform_digest, min(r."from") AS since
      FROM runs r
      WHERE r.workspace_id = ${workspaceId}::uuid AND r.is_main AND NOT r.declared
        AND r."from" < ${to} AND (r."to" IS NULL OR r."to" >= ${since})
      GROUP BY 1, 2, 3, 4, 5, 6, 7
    )
    SELECT f.service_id::text, f.environment_id::text, f.tag, f.version, res.tag AS resolved_tag, min(f.since) AS since
    FROM firsts f
    LEFT JOIN LATERAL (
      SELECT d.tag FROM upstream_repositories u
      JOIN digest_resolutions d ON d.repository_id = u.id
      WHERE u.key = f.repository AND (u.owner_workspace_id IS NULL OR u.owner_workspace_id = ${workspaceId}::uuid)
        AND d.tag IS NOT NULL AND (d.digest = f.digest OR d.digest = f.platform_digest)
      ORDER BY u.owner_workspace_id NULLS LAST
      LIMIT 1
    ) res ON true
    GROUP BY 1, 2, 3, 4, 5
    UNION ALL ${foldedArrivalsSql(workspaceId, since, to)}`;
}

/** Each service's repository as the matrix reads exact versions: its override, else what its main containers run now. */
async function loadServiceRepositories(ctx: Ctx, workspaceId: string): Promise<Map<string, string>> {
  const facts = await loadServiceFacts(ctx.db, workspaceId);
  const out = new Map<string, string>();
  for (const f of facts) {
    const repository = f.repository ?? f.runningRepository;
    if (repository !== null) out.set(f.id, repository);
  }
  return out;
}
