// An environment's position in the pipeline and its production flag.
import type { z } from "zod";
import { createAuditEntry } from "@/lib/db/queries/audit/create-audit-entry";
import { getEnvironment } from "@/lib/db/queries/environments/get-environment";
import { updateEnvironment as writeEnvironment } from "@/lib/db/queries/environments/update-environment";
import { AppError } from "@/lib/domain/errors";
import { actorLabel, requireRole, workspaceOf, type RequestCtx } from "../context";
import type { updateEnvironmentSchema } from "./schemas";
import { toEnvironmentOut, type EnvironmentOut } from "./to-out";

export async function updateEnvironment({ ctx, input: { name, ...changes } }: { ctx: RequestCtx; input: { name: string } & z.infer<typeof updateEnvironmentSchema> }): Promise<EnvironmentOut> {
  requireRole(ctx.actor, "member");
  const workspaceId = workspaceOf(ctx.actor);
  const env = await getEnvironment(ctx.db, workspaceId, name);
  if (!env) throw new AppError("not_found", `Environment ${name} was not found.`);
  const updated = await writeEnvironment(ctx.db, env.id, changes);
  await createAuditEntry(ctx.db, { workspaceId, actor: actorLabel(ctx.actor), action: "environment.updated", subject: name, data: changes });
  return toEnvironmentOut(updated);
}
