// The workspace's services as the API describes them, optionally one team's.
import { loadServiceFacts } from "@/lib/db/queries/services/list-service-facts";
import { workspaceOf, type RequestCtx } from "../context";
import { describeService, type ServiceOut } from "./describe";
import { getMatrix } from "../matrix/get";

export async function listServices({ ctx, input: { team } = {} }: { ctx: RequestCtx; input?: { team?: string | undefined } }): Promise<{ items: ServiceOut[] }> {
  const workspaceId = workspaceOf(ctx.actor);
  const [facts, matrix] = await Promise.all([loadServiceFacts(ctx.db, workspaceId), getMatrix({ ctx, input: {} })]);
  const newest = new Map(matrix.services.map((s) => [s.name, s.upstream.newest] as const));
  return {
    items: facts.filter((f) => !team || f.team === team).map((f) => describeService(f, { gitlabUrl: ctx.config.gitlabUrl, now: ctx.now, newest: newest.get(f.name) ?? null })),
  };
}
