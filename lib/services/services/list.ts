// Services: list, read, create, and change team, application, repository
// override and policy (PATCH merges policy fields; null removes one).
import type { z } from "zod";
import type { createServiceSchema, updateServiceSchema } from "@/lib/services/services/schemas";
import { Prisma } from "@/lib/db/client";
import { loadServiceFacts } from "@/lib/db/queries/services";
import { AppError } from "@/lib/domain/errors";
import { mergePolicy, type Policy } from "@/lib/domain/policy";
import { actorLabel, requireRole, workspaceOf, type RequestCtx } from "../context";
import { describeService, type ServiceOut } from "./describe";
import { ensureUpstreamRepositories } from "../upstream/ensure-repositories";
import { validatePolicy } from "./validate-policy";

export async function listServices({ ctx, team }: { ctx: RequestCtx; team?: string }): Promise<{ items: ServiceOut[] }> {
  const workspaceId = workspaceOf(ctx.actor);
  const facts = await loadServiceFacts(ctx.db, workspaceId);
  return {
    items: facts.filter((f) => !team || f.team === team).map((f) => describeService(f, { gitlabUrl: ctx.config.gitlabUrl })),
  };
}

export async function getServiceOrThrow({ ctx, name }: { ctx: RequestCtx; name: string }): Promise<ServiceOut> {
  const workspaceId = workspaceOf(ctx.actor);
  const [facts] = await loadServiceFacts(ctx.db, workspaceId, [name]);
  if (!facts) throw new AppError("not_found", `Service ${name} was not found.`);
  return describeService(facts, { gitlabUrl: ctx.config.gitlabUrl });
}

export async function createService({ ctx, input }: { ctx: RequestCtx; input: z.infer<typeof createServiceSchema> }): Promise<ServiceOut> {
  requireRole(ctx.actor, "member");
  const workspaceId = workspaceOf(ctx.actor);
  const policy = input.policy ? validatePolicy(input.policy, { gitlabUrl: ctx.config.gitlabUrl }) : null;
  await ctx.db.$transaction(async (tx) => {
    const exists = await tx.service.findUnique({ where: { workspaceId_name: { workspaceId, name: input.name } } });
    if (exists) throw new AppError("conflict", `Service ${input.name} already exists.`);
    await tx.service.create({
      data: {
        workspaceId, name: input.name, team: input.team ?? null, application: input.application ?? null,
        repository: input.repository ?? null, policy: (policy ?? undefined) as Prisma.InputJsonValue | undefined, checkDueAt: ctx.now,
      },
    });
    await tx.auditEntry.create({ data: { workspaceId, actor: actorLabel(ctx.actor), action: "service.created", subject: input.name } });
  });
  if (input.repository) await ensureUpstreamRepositories(ctx.db, workspaceId, [input.repository], ctx.config.serverRegistries, ctx.now);
  return getServiceOrThrow({ ctx, name: input.name });
}

export async function updateService({ ctx, name, input }: { ctx: RequestCtx; name: string; input: z.infer<typeof updateServiceSchema> }): Promise<ServiceOut> {
  requireRole(ctx.actor, "member");
  const workspaceId = workspaceOf(ctx.actor);
  const service = await ctx.db.service.findUnique({ where: { workspaceId_name: { workspaceId, name } } });
  if (!service) throw new AppError("not_found", `Service ${name} was not found.`);

  let policy: Policy | null | undefined = undefined;
  if (input.policy === null) policy = null;
  else if (input.policy !== undefined) {
    const merged = mergePolicy((service.policy ?? null) as Policy | null, input.policy);
    policy = Object.keys(merged).length ? validatePolicy(merged, { gitlabUrl: ctx.config.gitlabUrl }) : null;
  }
  const repositoryChanged = input.repository !== undefined && input.repository !== service.repository;
  await ctx.db.$transaction(async (tx) => {
    await tx.service.update({
      where: { id: service.id },
      data: {
        team: input.team,
        application: input.application,
        repository: input.repository,
        ...(policy === undefined ? {} : { policy: policy === null ? Prisma.DbNull : (policy as Prisma.InputJsonValue) }),
        // A new repository or policy is worth a check within the minute.
        ...(repositoryChanged || policy !== undefined ? { checkDueAt: ctx.now } : {}),
      },
    });
    await tx.auditEntry.create({
      data: { workspaceId, actor: actorLabel(ctx.actor), action: "service.updated", subject: name, data: input as Prisma.InputJsonValue },
    });
  });
  if (input.repository) await ensureUpstreamRepositories(ctx.db, workspaceId, [input.repository], ctx.config.serverRegistries, ctx.now);
  return getServiceOrThrow({ ctx, name });
}
