// Revoking an agent key: reports signed with it are refused from then on. Admins only.
import { AppError } from "@/lib/domain/errors";
import { actorLabel, requireRole, workspaceOf, type RequestCtx } from "../context";

export async function revokeAgentKey({ ctx, input: { id } }: { ctx: RequestCtx; input: { id: string } }): Promise<void> {
  requireRole(ctx.actor, "admin");
  const workspaceId = workspaceOf(ctx.actor);
  const result = await ctx.db.agentKey.updateMany({ where: { id, workspaceId, revokedAt: null }, data: { revokedAt: ctx.now } });
  if (result.count === 0) throw new AppError("not_found", "No such active agent key.");
  await ctx.db.auditEntry.create({ data: { workspaceId, actor: actorLabel(ctx.actor), action: "agent_key.revoked", subject: id } });
}
