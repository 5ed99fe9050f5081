// The Delivery chart of open drift per day, by kind.
import { listDriftSpans } from "@/lib/db/queries/drifts/list-drift-spans";
import { DRIFT_KINDS, type DriftKind } from "@/lib/domain/policy";
import { formatUtcDate } from "@/lib/render/dates";
import { requireRole, workspaceOf, type RequestCtx } from "../context";

const DAY = 86_400_000;

export type DailyDrift = { days: { date: string; byKind: Partial<Record<DriftKind, number>> }[] };

/** Drift open at the end of each of the last `days` days (today: now), by kind. */
export async function getDailyDrift({ ctx, input: { days = 30 } = {} }: { ctx: RequestCtx; input?: { days?: number } }): Promise<DailyDrift> {
  requireRole(ctx.actor, "viewer");
  const workspaceId = workspaceOf(ctx.actor);
  const now = ctx.now;
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const start = new Date(today.getTime() - (days - 1) * DAY);
  const rows = await listDriftSpans(ctx.db, workspaceId, start, now);
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
