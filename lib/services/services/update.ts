// A service's team, application, repository override and policy (policy fields
// merge; null removes one).
import type { z } from "zod";
import { Prisma } from "@/lib/db/client";
import { createAuditEntry } from "@/lib/db/queries/audit/create-audit-entry";
import { getService } from "@/lib/db/queries/services/get-service";
import { updateService as updateServiceRow } from "@/lib/db/queries/services/update-service";
import { AppError } from "@/lib/domain/errors";
import { mergePolicy, type Policy } from "@/lib/domain/policy";
import { actorLabel, requireRole, workspaceOf, type RequestCtx } from "../context";
import { ensureUpstreamRepositories } from "../upstream/ensure-repositories";
import { followChartRepository } from "../upstream/follow-chart-repository";
import type { ServiceOut } from "./describe";
import { getServiceOrThrow } from "./get";
import type { updateServiceSchema } from "./schemas";
import { checkChartRepositorySetting, validatePolicy } from "./validate-policy";

export async function updateService({ ctx, input: { name, ...input } }: { ctx: RequestCtx; input: { name: string } & z.infer<typeof updateServiceSchema> }): Promise<ServiceOut> {
  requireRole(ctx.actor, "member");
  const workspaceId = workspaceOf(ctx.actor);
  const service = await getService(ctx.db, workspaceId, name);
  if (!service) throw new AppError("not_found", `Service ${name} was not found.`);

  let policy: Policy | null | undefined = undefined;
  if (input.policy === null) policy = null;
  else if (input.policy !== undefined) {
    const merged = mergePolicy((service.policy ?? null) as Policy | null, input.policy);
    policy = Object.keys(merged).length ? validatePolicy(merged, { gitlabUrl: ctx.config.gitlabUrl }) : null;
    // Only a repository being set now: an unrelated change never fails on one stored earlier.
    if (input.policy.chart_repository != null) checkChartRepositorySetting(name, policy?.chart_repository, ctx.config);
  }
  const repositoryChanged = input.repository !== undefined && input.repository !== service.repository;
  await ctx.db.$transaction(async (tx) => {
    await updateServiceRow(tx, service.id, {
      team: input.team,
      application: input.application,
      repository: input.repository,
      ...(policy === undefined ? {} : { policy: policy === null ? Prisma.DbNull : (policy as Prisma.InputJsonValue) }),
      // A new repository or policy is worth a check within the minute.
      ...(repositoryChanged || policy !== undefined ? { checkDueAt: ctx.now } : {}),
    });
    await createAuditEntry(tx, { workspaceId, actor: actorLabel(ctx.actor), action: "service.updated", subject: name, data: input as Prisma.InputJsonValue });
  });
  if (input.repository) await ensureUpstreamRepositories(ctx.db, workspaceId, [input.repository], ctx.config.serverRegistries, ctx.now);
  const chartRepository = policy === undefined ? undefined : (policy?.chart_repository ?? null);
  if (chartRepository !== undefined && chartRepository !== ((service.policy as Policy | null)?.chart_repository ?? null)) {
    await followChartRepository({ ctx, input: { workspaceId, serviceId: service.id, chartRepository } });
  }
  return getServiceOrThrow({ ctx, input: { name } });
}
