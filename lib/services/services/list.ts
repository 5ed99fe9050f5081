// The workspace's services as the API describes them, optionally one team's.
import { loadServiceFacts } from "@/lib/db/queries/services/list-service-facts";
import { workspaceOf, type RequestCtx } from "../context";
import { describeService, type ServiceOut } from "./describe";
import { getMatrix } from "../matrix/get";
import { listHeldReleasesByService } from "../insights/waiting-releases";

export async function listServices({ ctx, input: { team } = {} }: { ctx: RequestCtx; input?: { team?: string | undefined } }): Promise<{ items: ServiceOut[] }> {
  const workspaceId = workspaceOf(ctx.actor);
  const [facts, matrix, held] = await Promise.all([loadServiceFacts(ctx.db, workspaceId), getMatrix({ ctx, input: {} }), listHeldReleasesByService({ ctx })]);
  const newest = new Map(matrix.services.map((s) => [s.name, s.upstream.newest] as const));
  return {
    items: facts.filter((f) => !team || f.team === team).map((f) => describeService(f, { gitlabUrl: ctx.config.gitlabUrl, now: ctx.now, newest: newest.get(f.name) ?? null, waiting: held.get(f.name) })),
  };
}
