// The workspace's services as the API describes them, optionally one team's.
import { loadServiceFacts } from "@/lib/db/queries/services";
import { workspaceOf, type RequestCtx } from "../context";
import { describeService, type ServiceOut } from "./describe";

export async function listServices({ ctx, input: { team } = {} }: { ctx: RequestCtx; input?: { team?: string | undefined } }): Promise<{ items: ServiceOut[] }> {
  const workspaceId = workspaceOf(ctx.actor);
  const facts = await loadServiceFacts(ctx.db, workspaceId);
  return {
    items: facts.filter((f) => !team || f.team === team).map((f) => describeService(f, { gitlabUrl: ctx.config.gitlabUrl })),
  };
}
