// The two Delivery charts' series: versions that arrived per week and
// environment (counted by the same rule as the delivery statistics, the
// domain's computeDelivery, once per week), and open drift per day by kind.
import { DRIFT_KINDS, type DriftKind } from "@/lib/domain/policy";
import { formatUtcDate } from "@/lib/render/dates";
import { requireRole, workspaceOf, type RequestCtx } from "../context";
import { loadArrivalIndex } from "./delivery-arrivals";

const DAY = 86_400_000;

export type WeeklyArrivals = { environments: string[]; weeks: { weekStart: string; byEnvironment: Record<string, number> }[] };
export type DailyDrift = { days: { date: string; byKind: Partial<Record<DriftKind, number>> }[] };

/** Monday 00:00 UTC of the week holding `d`. */
export function weekStart(d: Date): Date {
  const day = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY);
}

/** Versions arrived per week and environment over the last `weeks` weeks (the current week last, partial). */
export async function getWeeklyArrivals({ ctx, weeks = 12 }: { ctx: RequestCtx; weeks?: number }): Promise<WeeklyArrivals> {
  requireRole(ctx.actor, "viewer");
  const now = ctx.now;
  const first = new Date(weekStart(now).getTime() - (weeks - 1) * 7 * DAY);
  const index = await loadArrivalIndex(ctx, workspaceOf(ctx.actor), { from: first, to: now });
  const out: WeeklyArrivals["weeks"] = [];
  for (let i = 0; i < weeks; i++) {
    const from = new Date(first.getTime() + i * 7 * DAY);
    const to = i === weeks - 1 ? now : new Date(from.getTime() + 7 * DAY);
    const stats = index.stats({ from, to });
    out.push({ weekStart: formatUtcDate(from), byEnvironment: Object.fromEntries(stats.environments.map((e) => [e.environment, e.deploys])) });
  }
  return { environments: index.environments.map((e) => e.name), weeks: out };
}

/** Drift open at the end of each of the last `days` days (today: now), by kind. */
export async function getDailyDrift({ ctx, days = 30 }: { ctx: RequestCtx; days?: number }): Promise<DailyDrift> {
  requireRole(ctx.actor, "viewer");
  const workspaceId = workspaceOf(ctx.actor);
  const now = ctx.now;
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
