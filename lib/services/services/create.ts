// A new service, with its team, application, repository override and policy.
import type { z } from "zod";
import type { Prisma } from "@/lib/db/client";
import { createAuditEntry } from "@/lib/db/queries/audit/create-audit-entry";
import { createService as createServiceRow } from "@/lib/db/queries/services/create-service";
import { getServiceId } from "@/lib/db/queries/services/get-service-id";
import { AppError } from "@/lib/domain/errors";
import { actorLabel, requireRole, workspaceOf, type RequestCtx } from "../context";
import { ensureUpstreamRepositories } from "../upstream/ensure-repositories";
import type { ServiceOut } from "./describe";
import { getServiceOrThrow } from "./get";
import type { createServiceSchema } from "./schemas";
import { checkChartRepositorySetting, validatePolicy } from "./validate-policy";

export async function createService({ ctx, input }: { ctx: RequestCtx; input: z.infer<typeof createServiceSchema> }): Promise<ServiceOut> {
  requireRole(ctx.actor, "member");
  const workspaceId = workspaceOf(ctx.actor);
  const policy = input.policy ? validatePolicy(input.policy, { gitlabUrl: ctx.config.gitlabUrl }) : null;
  checkChartRepositorySetting(input.name, policy?.chart_repository, ctx.config);
  await ctx.db.$transaction(async (tx) => {
    if (await getServiceId(tx, workspaceId, input.name)) throw new AppError("conflict", `Service ${input.name} already exists.`);
    await createServiceRow(tx, {
      workspaceId, name: input.name, team: input.team ?? null, application: input.application ?? null,
      repository: input.repository ?? null, policy: (policy ?? undefined) as Prisma.InputJsonValue | undefined, checkDueAt: ctx.now,
    });
    await createAuditEntry(tx, { workspaceId, actor: actorLabel(ctx.actor), action: "service.created", subject: input.name });
  });
  if (input.repository) await ensureUpstreamRepositories(ctx.db, workspaceId, [input.repository], ctx.config.serverRegistries, ctx.now);
  return getServiceOrThrow({ ctx, input: { name: input.name } });
}
