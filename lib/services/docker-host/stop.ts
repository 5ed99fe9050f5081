// Stop watching the server's Docker host: the server collects it no more. What it recorded stays;
// its target goes quiet like an agent's that stopped. Admins only.
import { createAuditEntry } from "@/lib/db/queries/audit/create-audit-entry";
import { disableDockerHostWatch } from "@/lib/db/queries/docker-host/disable-docker-host-watch";
import { AppError } from "@/lib/domain/errors";
import { actorLabel, requireRole, workspaceOf, type RequestCtx } from "../context";
import { stopWatchingDockerHostSchema } from "./schemas";

export async function stopWatchingDockerHost({ ctx, input }: { ctx: RequestCtx; input: unknown }): Promise<{ target: string }> {
  requireRole(ctx.actor, "admin");
  const workspaceId = workspaceOf(ctx.actor);
  const parsed = stopWatchingDockerHostSchema.safeParse(input);
  if (!parsed.success) throw new AppError("not_found", "No such Docker host watch.");
  return ctx.db.$transaction(async (tx) => {
    const stopped = await disableDockerHostWatch(tx, workspaceId, parsed.data.id);
    if (!stopped) throw new AppError("not_found", "This workspace does not watch that Docker host.");
    await createAuditEntry(tx, { workspaceId, actor: actorLabel(ctx.actor), action: "docker_host.stopped", subject: parsed.data.id, data: { target: stopped.targetName } });
    return { target: stopped.targetName };
  });
}
