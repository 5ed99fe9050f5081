// Releases that wait for the policy's minimum release age, for the updates list
// and the service page, and per service for the API's `upstream.waiting`.
import { listHeldByService, listWaitingReleases, type WaitingRelease } from "@/lib/domain/insights";
import { requireRole, workspaceOf, type RequestCtx } from "../context";
import { cachedDriftInputs, loadFleet } from "./fleet";

export async function listWaitingReleasesOf({ ctx, input = {} }: { ctx: RequestCtx; input?: { service?: string; team?: string } }): Promise<WaitingRelease[]> {
  requireRole(ctx.actor, "viewer");
  const fleet = await loadFleet(ctx, workspaceOf(ctx.actor), { team: input.team });
  const services = input.service === undefined ? fleet.services : fleet.services.filter((s) => s.name === input.service);
  return listWaitingReleases({ services, environments: fleet.environments, current: fleet.current, now: ctx.now });
}

/** Service name → the releases its minimum release age holds back now, oldest first; one service's with `service`. */
export async function listHeldReleasesByService({ ctx, input = {} }: { ctx: RequestCtx; input?: { service?: string } }): Promise<Map<string, { version: string; until: Date }[]>> {
  const inputs = await cachedDriftInputs(ctx, workspaceOf(ctx.actor));
  const services = input.service === undefined ? inputs.services : inputs.services.filter((s) => s.name === input.service);
  return listHeldByService({ services, current: inputs.current, now: ctx.now });
}
