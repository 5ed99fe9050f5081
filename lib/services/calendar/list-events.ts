// The workspace calendar's events, from the inputs drift evaluation reads (what
// runs, its end-of-life cycles, the policies), the live drift records and the
// acknowledgements in force.
import { listOpenAcks } from "@/lib/db/queries/acks/list-open-acks";
import { listLiveDrifts } from "@/lib/db/queries/drifts/list-live-drifts";
import { planCalendarEvents, type CalendarDrift, type CalendarEvent } from "@/lib/domain/calendar";
import { requireRole, workspaceOf, type RequestCtx } from "../context";
import { cachedDriftInputs } from "../insights/fleet";

export async function listCalendarEvents({ ctx }: { ctx: RequestCtx }): Promise<CalendarEvent[]> {
  requireRole(ctx.actor, "viewer");
  const workspaceId = workspaceOf(ctx.actor);
  const [inputs, records, acks] = await Promise.all([cachedDriftInputs(ctx, workspaceId), listLiveDrifts(ctx.db, workspaceId), listOpenAcks(ctx.db, workspaceId, ctx.now)]);
  const serviceName = new Map(inputs.services.map((s) => [s.id, s.name] as const));
  const envName = new Map(inputs.environments.map((e) => [e.id, e.name] as const));
  const drifts: CalendarDrift[] = records.flatMap((r) => {
    const service = serviceName.get(r.serviceId);
    const environment = envName.get(r.environmentId);
    if (r.state === "resolved" || service === undefined || environment === undefined) return [];
    return [{ ...r, state: r.state, service, environment }];
  });
  return planCalendarEvents({
    workspaceId,
    environments: inputs.environments,
    services: inputs.services,
    current: inputs.current,
    drifts,
    acks,
    policies: new Map(inputs.services.map((s) => [s.id, s.policy] as const)),
    now: ctx.now,
  });
}
