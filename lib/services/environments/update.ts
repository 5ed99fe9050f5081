// An environment's position in the pipeline and its production flag.
import type { z } from "zod";
import { createAuditEntry } from "@/lib/db/queries/audit/create-audit-entry";
import { getEnvironment } from "@/lib/db/queries/environments/get-environment";
import { updateEnvironment as writeEnvironment } from "@/lib/db/queries/environments/update-environment";
import { updateEnvironmentGate } from "@/lib/db/queries/gate/update-environment-gate";
import { AppError } from "@/lib/domain/errors";
import { actorLabel, requireRole, workspaceOf, type RequestCtx } from "../context";
import type { updateEnvironmentSchema } from "./schemas";
import { toEnvironmentOut, type EnvironmentOut } from "./to-out";

/** Position and production need the member role; the gate's settings need admin. */
export async function updateEnvironment({ ctx, input: { name, gate, ...changes } }: { ctx: RequestCtx; input: { name: string } & z.infer<typeof updateEnvironmentSchema> }): Promise<EnvironmentOut> {
  requireRole(ctx.actor, gate === undefined ? "member" : "admin");
  const workspaceId = workspaceOf(ctx.actor);
  const env = await getEnvironment(ctx.db, workspaceId, name);
  if (!env) throw new AppError("not_found", `Environment ${name} was not found.`);
  return ctx.db.$transaction(async (tx) => {
    if (gate !== undefined) await updateEnvironmentGate(tx, env.id, gate);
    const updated = await writeEnvironment(tx, env.id, changes);
    await createAuditEntry(tx, { workspaceId, actor: actorLabel(ctx.actor), action: "environment.updated", subject: name, data: { ...changes, ...(gate ? { gate } : {}) } });
    return toEnvironmentOut(updated);
  });
}
