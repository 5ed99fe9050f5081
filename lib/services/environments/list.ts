// Environments: the pipeline order (position) that env drift, promotions
// and lead times follow.
import type { z } from "zod";
import type { createEnvironmentSchema, environmentSchema, updateEnvironmentSchema } from "@/lib/services/environments/schemas";
import { AppError } from "@/lib/domain/errors";
import { actorLabel, requireRole, workspaceOf, type RequestCtx } from "../context";

type EnvironmentOut = z.infer<typeof environmentSchema>;

function toOut(e: { name: string; position: number; production: boolean; _count: { targets: number } }): EnvironmentOut {
  return { name: e.name, position: e.position, production: e.production, targets: e._count.targets };
}

export async function listEnvironments({ ctx }: { ctx: RequestCtx }): Promise<{ items: EnvironmentOut[] }> {
  const workspaceId = workspaceOf(ctx.actor);
  const rows = await ctx.db.environment.findMany({
    where: { workspaceId },
    orderBy: [{ position: "asc" }, { name: "asc" }],
    include: { _count: { select: { targets: true } } },
  });
  return { items: rows.map(toOut) };
}

export async function createEnvironment({ ctx, input }: { ctx: RequestCtx; input: z.infer<typeof createEnvironmentSchema> }): Promise<EnvironmentOut> {
  requireRole(ctx.actor, "member");
  const workspaceId = workspaceOf(ctx.actor);
  return ctx.db.$transaction(async (tx) => {
    const exists = await tx.environment.findUnique({ where: { workspaceId_name: { workspaceId, name: input.name } } });
    if (exists) throw new AppError("conflict", `Environment ${input.name} already exists.`);
    const env = await tx.environment.create({
      data: { workspaceId, name: input.name, position: input.position, production: input.production ?? false },
      include: { _count: { select: { targets: true } } },
    });
    await tx.auditEntry.create({ data: { workspaceId, actor: actorLabel(ctx.actor), action: "environment.created", subject: env.name } });
    return toOut(env);
  });
}

export async function updateEnvironment({ ctx, name, input }: { ctx: RequestCtx; name: string; input: z.infer<typeof updateEnvironmentSchema> }): Promise<EnvironmentOut> {
  requireRole(ctx.actor, "member");
  const workspaceId = workspaceOf(ctx.actor);
  const env = await ctx.db.environment.findUnique({ where: { workspaceId_name: { workspaceId, name } } });
  if (!env) throw new AppError("not_found", `Environment ${name} was not found.`);
  const updated = await ctx.db.environment.update({
    where: { id: env.id },
    data: { position: input.position, production: input.production },
    include: { _count: { select: { targets: true } } },
  });
  await ctx.db.auditEntry.create({ data: { workspaceId, actor: actorLabel(ctx.actor), action: "environment.updated", subject: name, data: input } });
  return toOut(updated);
}
