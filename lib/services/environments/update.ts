// An environment's position in the pipeline and its production flag.
import type { z } from "zod";
import { AppError } from "@/lib/domain/errors";
import { actorLabel, requireRole, workspaceOf, type RequestCtx } from "../context";
import type { updateEnvironmentSchema } from "./schemas";
import { toEnvironmentOut, type EnvironmentOut } from "./to-out";

export async function updateEnvironment({ ctx, input: { name, ...changes } }: { ctx: RequestCtx; input: { name: string } & z.infer<typeof updateEnvironmentSchema> }): Promise<EnvironmentOut> {
  requireRole(ctx.actor, "member");
  const workspaceId = workspaceOf(ctx.actor);
  const env = await ctx.db.environment.findUnique({ where: { workspaceId_name: { workspaceId, name } } });
  if (!env) throw new AppError("not_found", `Environment ${name} was not found.`);
  const updated = await ctx.db.environment.update({
    where: { id: env.id },
    data: { position: changes.position, production: changes.production },
    include: { _count: { select: { targets: true } } },
  });
  await ctx.db.auditEntry.create({ data: { workspaceId, actor: actorLabel(ctx.actor), action: "environment.updated", subject: name, data: changes } });
  return toEnvironmentOut(updated);
}
