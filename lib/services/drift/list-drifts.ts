// GET /api/v1/drifts: drift records of the workspace, live ones by default,
// each marked `silenced` when an active acknowledgement quiets it.
import type { z } from "zod";
import type { driftQuerySchema, driftSchema } from "@/lib/services/drift/schemas";
import { listOpenAcks } from "@/lib/db/queries/acks/list-open-acks";
import { listDrifts as listDriftRows } from "@/lib/db/queries/drifts/list-drifts";
import { listTargetNames } from "@/lib/db/queries/targets/list-target-names";
import { indexUpstreamTargets, isDriftSilenced, nextAckExpiry, type AckRecord } from "@/lib/domain/drift";
import { workspaceOf, type RequestCtx } from "../context";
import { cachedInsight } from "../cache/insights-cache";
import { loadRunningVersions } from "./running-versions";
import { cachedDriftInputs } from "../insights/fleet";
import { nextUpstreamStaleAt, upstreamStatusOf } from "../upstream/status";

type DriftOut = z.infer<typeof driftSchema>;
type DriftQuery = z.infer<typeof driftQuerySchema>;

type DriftList = { items: DriftOut[] };

/**
 * Answered from the insights cache while the database is unchanged. The clock changes the list
 * only where an acknowledgement expires (it stops silencing): the cached list is recomputed then,
 * not on a schedule.
 */
export async function listDrifts({ ctx, input: query }: { ctx: RequestCtx; input: DriftQuery }): Promise<DriftList> {
  const workspaceId = workspaceOf(ctx.actor);
  const key = `${workspaceId}:drifts:${JSON.stringify([query.state, query.kind, query.service, query.environment, query.limit])}`;
  const { list } = await cachedInsight(ctx, key, () => computeDrifts(ctx, workspaceId, query), { validUntil: (r) => r.validUntil });
  return list;
}

async function computeDrifts(ctx: RequestCtx, workspaceId: string, query: DriftQuery): Promise<{ list: DriftList; validUntil: number | null }> {
  const now = ctx.now;
  const rows = await listDriftRows(ctx.db, workspaceId, query);
  if (rows.length === 0) return { list: { items: [] }, validUntil: null };

  const targetIds = [...new Set(rows.map((r) => r.targetId).filter((t): t is string => t !== null))];
  const serviceIds = [...new Set(rows.map((r) => r.serviceId))];
  const [targets, acks, inputs] = await Promise.all([
    targetIds.length ? listTargetNames(ctx.db, workspaceId, targetIds) : [],
    listOpenAcks(ctx.db, workspaceId, now, serviceIds),
    cachedDriftInputs(ctx, workspaceId),
  ]);
  const upstreamState = new Map(inputs.facts.map((f) => [f.id, upstreamStatusOf(f.upstream, now).state] as const));
  const targetName = new Map(targets.map((t) => [t.id, t.name] as const));
  const acksBy = new Map<string, AckRecord[]>();
  for (const a of acks) acksBy.set(a.serviceId, [...(acksBy.get(a.serviceId) ?? []), a]);
  const runningVersions = await loadRunningVersions(ctx.db, workspaceId, acks.filter((a) => a.untilVersion !== null).map((a) => a.serviceId));
  // A skipped version silences while the upstream target is not newer than it.
  const upstreamTargets = indexUpstreamTargets(rows);

  const list = {
    items: rows.map((r) => ({
      id: r.id,
      service: r.service.name,
      environment: r.environment.name,
      target: r.targetId ? (targetName.get(r.targetId) ?? null) : null,
      kind: r.kind,
      state: r.state,
      running: r.running,
      expected: r.expected,
      opened_at: r.openedAt.toISOString(),
      announced_at: r.announcedAt?.toISOString() ?? null,
      resolved_at: r.resolvedAt?.toISOString() ?? null,
      silenced: r.state !== "resolved" && isDriftSilenced(r, { acks: acksBy.get(r.serviceId) ?? [], runningVersions, now, upstreamTargets }),
      upstream_state: upstreamState.get(r.serviceId) ?? "unchecked",
    })),
  };
  // Recomputed when an acknowledgement expires or an upstream state turns stale, whichever comes first.
  const times = [nextAckExpiry(acks, now)?.getTime() ?? null, nextUpstreamStaleAt(inputs.facts.map((f) => f.upstream))].filter((t): t is number => t !== null && t > now.getTime());
  return { list, validUntil: times.length ? Math.min(...times) : null };
}
