// The workspace calendar's events, from the inputs drift evaluation reads (what
// runs, its end-of-life cycles, the policies) and the live drift records.
import { listLiveDrifts } from "@/lib/db/queries/drifts/list-live-drifts";
import { planCalendarEvents, type CalendarEvent, type PendingDrift } from "@/lib/domain/calendar";
import { requireRole, workspaceOf, type RequestCtx } from "../context";
import { cachedDriftInputs } from "../insights/fleet";

export async function listCalendarEvents({ ctx }: { ctx: RequestCtx }): Promise<CalendarEvent[]> {
  requireRole(ctx.actor, "viewer");
  const workspaceId = workspaceOf(ctx.actor);
  const [inputs, records] = await Promise.all([cachedDriftInputs(ctx, workspaceId), listLiveDrifts(ctx.db, workspaceId)]);
  const serviceName = new Map(inputs.services.map((s) => [s.id, s.name] as const));
  const envName = new Map(inputs.environments.map((e) => [e.id, e.name] as const));
  const pending: PendingDrift[] = records.flatMap((r) => {
    const service = serviceName.get(r.serviceId);
    const environment = envName.get(r.environmentId);
    if (r.state !== "open" || service === undefined || environment === undefined) return [];
    return [{ id: r.id, serviceId: r.serviceId, service, environment, kind: r.kind, running: r.running, expected: r.expected, openedAt: r.openedAt }];
  });
  return planCalendarEvents({
    workspaceId,
    environments: inputs.environments,
    services: inputs.services,
    current: inputs.current,
    pending,
    policies: new Map(inputs.services.map((s) => [s.id, s.policy] as const)),
  });
}
