// Revoking an API token: requests bearing it are refused from then on. Admins only.
import { revokeApiToken as markApiTokenRevoked } from "@/lib/db/queries/api-tokens/revoke-api-token";
import { createAuditEntry } from "@/lib/db/queries/audit/create-audit-entry";
import { AppError } from "@/lib/domain/errors";
import { actorLabel, requireRole, workspaceOf, type RequestCtx } from "../context";

export async function revokeApiToken({ ctx, input: { id } }: { ctx: RequestCtx; input: { id: string } }): Promise<void> {
  requireRole(ctx.actor, "admin");
  const workspaceId = workspaceOf(ctx.actor);
  if (!(await markApiTokenRevoked(ctx.db, workspaceId, id, ctx.now))) throw new AppError("not_found", "No such active token.");
  await createAuditEntry(ctx.db, { workspaceId, actor: actorLabel(ctx.actor), action: "token.revoked", subject: id });
}
