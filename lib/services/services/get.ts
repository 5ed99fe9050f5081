// One service as the API describes it.
import { loadServiceFacts } from "@/lib/db/queries/services/list-service-facts";
import { AppError } from "@/lib/domain/errors";
import { workspaceOf, type RequestCtx } from "../context";
import { describeService, type ServiceOut } from "./describe";
import { getMatrix } from "../matrix/get";
import { listHeldReleasesByService } from "../insights/waiting-releases";
import { getQuotaWait } from "../upstream/quota-wait";

export async function getServiceOrThrow({ ctx, input: { name } }: { ctx: RequestCtx; input: { name: string } }): Promise<ServiceOut> {
  const workspaceId = workspaceOf(ctx.actor);
  const [facts] = await loadServiceFacts(ctx.db, workspaceId, [name]);
  if (!facts) throw new AppError("not_found", `Service ${name} was not found.`);
  const [matrix, held] = await Promise.all([getMatrix({ ctx, input: {} }), listHeldReleasesByService({ ctx, input: { service: name } })]);
  const newest = matrix.services.find((s) => s.name === name)?.upstream.newest ?? null;
  const described = describeService(facts, { gitlabUrl: ctx.config.gitlabUrl, now: ctx.now, newest, waiting: held.get(name) });
  const quotaWait = described.repository ? await getQuotaWait({ ctx, repository: described.repository }) : null;
  return { ...described, upstream: { ...described.upstream, quota_wait: quotaWait } };
}
