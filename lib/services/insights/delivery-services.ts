// The services behind the Delivery page's deploy counts: per environment,
// which services had versions arrive in the window, so each count links to
// what it counts.
import { listServiceNames } from "@/lib/db/queries/services/list-service-names";
import { deliveryWindowMs } from "@/lib/services/insights/schemas";
import { invalid } from "@/lib/domain/errors";
import { requireRole, workspaceOf, type RequestCtx } from "../context";
import { loadArrivalIndex } from "./delivery-arrivals";

export type DeliveryServices = { environment: string; services: { service: string; deploys: number }[] }[];

export async function listDeliveryServices({ ctx, input: { window } }: { ctx: RequestCtx; input: { window: string } }): Promise<DeliveryServices> {
  requireRole(ctx.actor, "viewer");
  const workspaceId = workspaceOf(ctx.actor);
  const ms = deliveryWindowMs(window);
  if (ms === null) throw invalid("/query/window", "must be a duration such as 7d, 30d or 12w, at most 365d");
  const to = ctx.now;
  const from = new Date(to.getTime() - ms);
  const byEnv = (await loadArrivalIndex(ctx, workspaceId, { from, to })).arrivalsByService({ from, to });
  const ids = [...new Set(byEnv.flatMap((e) => e.services.map((s) => s.serviceId)))];
  const names = new Map((await listServiceNames(ctx.db, workspaceId, ids)).map((s) => [s.id, s.name] as const));
  return byEnv.map((e) => ({ environment: e.environment, services: e.services.map((s) => ({ service: names.get(s.serviceId) ?? s.serviceId, deploys: s.deploys })) }));
}
