// Delivery statistics: versions arriving per environment
// and lead times between neighbouring environments, from what ran when. The
// database folds history to first arrivals (delivery-arrivals.ts); the domain
// does the counting.
import type { z } from "zod";
import { DEFAULT_DELIVERY_WINDOW, deliveryWindowMs, type deliverySchema } from "@/lib/services/insights/schemas";
import { formatDuration } from "@/lib/domain/duration";
import { invalid } from "@/lib/domain/errors";
import { requireRole, workspaceOf, type RequestCtx } from "../context";
import { loadArrivalIndex } from "./delivery-arrivals";
import { cachedInsight } from "../cache/insights-cache";

export type DeliveryOut = z.infer<typeof deliverySchema>;

export async function getDelivery({ ctx, input: { window = DEFAULT_DELIVERY_WINDOW } = {} }: { ctx: RequestCtx; input?: { window?: string | undefined } }): Promise<DeliveryOut> {
  requireRole(ctx.actor, "viewer");
  const workspaceId = workspaceOf(ctx.actor);
  const ms = deliveryWindowMs(window);
  if (ms === null) throw invalid("/query/window", "must be a duration such as 7d, 30d or 12w, at most 365d");
  return cachedInsight(ctx, `${workspaceId}:delivery:${ms}`, () => computeDeliveryOut(ctx, workspaceId, ms));
}

async function computeDeliveryOut(ctx: RequestCtx, workspaceId: string, ms: number): Promise<DeliveryOut> {
  const to = ctx.now;
  const from = new Date(to.getTime() - ms);
  const index = await loadArrivalIndex(ctx, workspaceId, { from, to });
  return { window: formatDuration(ms), from: from.toISOString(), to: to.toISOString(), ...index.stats({ from, to }) };
}
