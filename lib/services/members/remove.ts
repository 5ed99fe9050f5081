// Removing a member. The last owner stays; only an owner removes an owner.
import { createAuditEntry } from "@/lib/db/queries/audit/create-audit-entry";
import { deleteMembership } from "@/lib/db/queries/members/delete-membership";
import { AppError } from "@/lib/domain/errors";
import { actorLabel, hasRole, requireRole, type RequestCtx } from "../context";
import { getMembershipOrThrow, ownersLeft } from "./rules";

export async function removeMember({ ctx, input: { email } }: { ctx: RequestCtx; input: { email: string } }): Promise<void> {
  requireRole(ctx.actor, "admin");
  const m = await getMembershipOrThrow(ctx, email);
  if (m.role === "owner" && !hasRole(ctx.actor, "owner")) throw new AppError("forbidden", "Only an owner can remove an owner.");
  if (m.role === "owner" && (await ownersLeft(ctx, m.workspaceId)) <= 1) throw new AppError("conflict", "The last owner cannot be removed.");
  await deleteMembership(ctx.db, m.workspaceId, m.userId);
  await createAuditEntry(ctx.db, { workspaceId: m.workspaceId, actor: actorLabel(ctx.actor), action: "member.removed", subject: m.user.email });
}
