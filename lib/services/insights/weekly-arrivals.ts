// The Delivery chart of versions that arrived per week and environment,
// counted by the same rule as the delivery statistics, once per week.
import { formatUtcDate } from "@/lib/render/dates";
import { requireRole, workspaceOf, type RequestCtx } from "../context";
import { loadArrivalIndex } from "./delivery-arrivals";

const DAY = 86_400_000;

export type WeeklyArrivals = { environments: string[]; weeks: { weekStart: string; byEnvironment: Record<string, number> }[] };

/** Monday 00:00 UTC of the week holding `d`. */
export function weekStart(d: Date): Date {
  const day = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY);
}

/** Versions arrived per week and environment over the last `weeks` weeks (the current week last, partial). */
export async function getWeeklyArrivals({ ctx, input: { weeks = 12 } = {} }: { ctx: RequestCtx; input?: { weeks?: number } }): Promise<WeeklyArrivals> {
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
