// Revoking an agent key: reports signed with it are refused from then on. Admins only.
import { revokeAgentKey as markAgentKeyRevoked } from "@/lib/db/queries/agent-keys/revoke-agent-key";
import { createAuditEntry } from "@/lib/db/queries/audit/create-audit-entry";
import { AppError } from "@/lib/domain/errors";
import { actorLabel, requireRole, workspaceOf, type RequestCtx } from "../context";

export async function revokeAgentKey({ ctx, input: { id } }: { ctx: RequestCtx; input: { id: string } }): Promise<void> {
  requireRole(ctx.actor, "admin");
  const workspaceId = workspaceOf(ctx.actor);
  if (!(await markAgentKeyRevoked(ctx.db, workspaceId, id, ctx.now))) throw new AppError("not_found", "No such active agent key.");
  await createAuditEntry(ctx.db, { workspaceId, actor: actorLabel(ctx.actor), action: "agent_key.revoked", subject: id });
}
