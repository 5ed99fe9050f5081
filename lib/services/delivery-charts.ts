// The two Delivery charts' series: versions that arrived per week and
// environment (counted by the same rule as the delivery statistics, the
// domain's computeDelivery, once per week), and open drift per day by kind.
import type { Db } from "@/lib/db/client";
import { foldedArrivalsSql } from "@/lib/db/queries/delivery-arrivals";
import { loadServiceFacts } from "@/lib/db/queries/services";
import { loadUpstream } from "@/lib/db/queries/upstream";
import type { HistoryRun } from "@/lib/domain/drift";
import { computeDelivery } from "@/lib/domain/insights";
import { DRIFT_KINDS, type DriftKind } from "@/lib/domain/policy";
import { exactVersionOf } from "@/lib/domain/running-version";
import { formatUtcDate } from "@/lib/render/dates";
import { requireRole, workspaceOf, type Ctx } from "./context";
import { loadEnvironments } from "./insights/fleet";
import { RESOLVED_TAG_JOIN } from "@/lib/db/queries/resolved-tag";

const DAY = 86_400_000;
/** A version last seen longer before the first week than this and rolled back to counts as new, as in the delivery statistics. */
const LOOKBACK_MS = 365 * DAY;

export type WeeklyArrivals = { environments: string[]; weeks: { weekStart: string; byEnvironment: Record<string, number> }[] };
export type DailyDrift = { days: { date: string; byKind: Partial<Record<DriftKind, number>> }[] };

/** Monday 00:00 UTC of the week holding `d`. */
export function weekStart(d: Date): Date {
  const day = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY);
}

type ArrivalRow = { service_id: string; environment_id: string; repository: string; tag: string; version: string | null; resolved_tag: string | null; since: Date };

/** First arrival of each tag (and resolved version) per service and environment: runtime rows of main containers, and deploys retention folded. */
async function loadArrivals(db: Db, workspaceId: string, since: Date, to: Date): Promise<ArrivalRow[]> {
  return db.$queryRaw<ArrivalRow[]>`
    SELECT r.service_id::text, r.environment_id::text, r.repository, r.tag, r.version, res.tag AS resolved_tag, min(r."from") AS since
    FROM runs r
    ${RESOLVED_TAG_JOIN}
    WHERE r.workspace_id = ${workspaceId}::uuid AND r.is_main AND NOT r.declared
      AND r."from" < ${to} AND (r."to" IS NULL OR r."to" >= ${since})
    GROUP BY 1, 2, 3, 4, 5, 6
    UNION ALL ${foldedArrivalsSql(workspaceId, since, to, { repositoryColumn: true })}`;
}

export type DeliveryHistory = { environments: Awaited<ReturnType<typeof loadEnvironments>>; history: HistoryRun[] };

/** Arrivals with exact versions, for computeDelivery over any window ending by `to` and starting after `from`. */
export async function loadDeliveryHistory({ ctx, from, to }: { ctx: Ctx; from: Date; to: Date }): Promise<DeliveryHistory> {
  requireRole(ctx.actor, "viewer");
  const workspaceId = workspaceOf(ctx.actor);
  const [environments, rows, facts] = await Promise.all([
    loadEnvironments(ctx, workspaceId),
    loadArrivals(ctx.db, workspaceId, new Date(from.getTime() - LOOKBACK_MS), to),
    loadServiceFacts(ctx.db, workspaceId),
  ]);
  const repositoryOf = new Map(facts.map((f) => [f.id, f.repository ?? f.runningRepository] as const));
  const upstream = await loadUpstream(ctx.db, workspaceId, [...new Set([...repositoryOf.values()].filter((r): r is string => r !== null))]);
  const history: HistoryRun[] = [];
  for (const a of rows) {
    const repository = repositoryOf.get(a.service_id) ?? null;
    const tags = repository === null ? null : (upstream.get(repository)?.tags ?? null);
    const version = exactVersionOf({ tag: a.tag, tagVersion: a.version, resolvedVersion: a.resolved_tag }, tags);
    if (version === null) continue;
    history.push({ serviceId: a.service_id, environmentId: a.environment_id, targetId: "", targetName: "", tag: a.tag, version, digest: null, since: a.since, declared: false, to: null });
  }
  return { environments, history };
}

/** Versions arrived per week and environment over the last `weeks` weeks (the current week last, partial). */
export async function getWeeklyArrivals({ ctx, weeks = 12 }: { ctx: Ctx; weeks?: number }): Promise<WeeklyArrivals> {
  const now = ctx.now();
  const first = new Date(weekStart(now).getTime() - (weeks - 1) * 7 * DAY);
  const { environments, history } = await loadDeliveryHistory({ ctx, from: first, to: now });
  const out: WeeklyArrivals["weeks"] = [];
  for (let i = 0; i < weeks; i++) {
    const from = new Date(first.getTime() + i * 7 * DAY);
    const to = i === weeks - 1 ? now : new Date(from.getTime() + 7 * DAY);
    const stats = computeDelivery({ environments, history, window: { from, to } });
    out.push({ weekStart: formatUtcDate(from), byEnvironment: Object.fromEntries(stats.environments.map((e) => [e.environment, e.deploys])) });
  }
  return { environments: environments.map((e) => e.name), weeks: out };
}

/** Drift open at the end of each of the last `days` days (today: now), by kind. */
export async function getDailyDrift({ ctx, days = 30 }: { ctx: Ctx; days?: number }): Promise<DailyDrift> {
  requireRole(ctx.actor, "viewer");
  const workspaceId = workspaceOf(ctx.actor);
  const now = ctx.now();
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const start = new Date(today.getTime() - (days - 1) * DAY);
  const rows = await ctx.db.drift.findMany({
    where: { workspaceId, openedAt: { lte: now }, OR: [{ resolvedAt: null }, { resolvedAt: { gte: start } }] },
    select: { kind: true, openedAt: true, resolvedAt: true },
  });
  const out: DailyDrift["days"] = [];
  for (let i = 0; i < days; i++) {
    const day = new Date(start.getTime() + i * DAY);
    const at = i === days - 1 ? now : new Date(day.getTime() + DAY - 1);
    const byKind: Partial<Record<DriftKind, number>> = {};
    for (const kind of DRIFT_KINDS) byKind[kind] = 0;
    for (const d of rows) if (d.openedAt <= at && (d.resolvedAt === null || d.resolvedAt > at)) byKind[d.kind] = (byKind[d.kind] ?? 0) + 1;
    out.push({ date: formatUtcDate(day), byKind });
  }
  return { days: out };
}
