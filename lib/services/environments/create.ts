// A new environment at a position in the pipeline.
import type { z } from "zod";
import { createAuditEntry } from "@/lib/db/queries/audit/create-audit-entry";
import { createEnvironment as insertEnvironment } from "@/lib/db/queries/environments/create-environment";
import { getEnvironment } from "@/lib/db/queries/environments/get-environment";
import { AppError } from "@/lib/domain/errors";
import { actorLabel, requireRole, workspaceOf, type RequestCtx } from "../context";
import type { createEnvironmentSchema } from "./schemas";
import { toEnvironmentOut, type EnvironmentOut } from "./to-out";

export async function createEnvironment({ ctx, input }: { ctx: RequestCtx; input: z.infer<typeof createEnvironmentSchema> }): Promise<EnvironmentOut> {
  requireRole(ctx.actor, "member");
  const workspaceId = workspaceOf(ctx.actor);
  return ctx.db.$transaction(async (tx) => {
    const exists = await getEnvironment(tx, workspaceId, input.name);
    if (exists) throw new AppError("conflict", `Environment ${input.name} already exists.`);
    const env = await insertEnvironment(tx, { workspaceId, name: input.name, position: input.position, production: input.production ?? false });
    await createAuditEntry(tx, { workspaceId, actor: actorLabel(ctx.actor), action: "environment.created", subject: env.name });
    return toEnvironmentOut(env);
  });
}
