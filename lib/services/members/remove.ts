// Removing a member. The last owner stays; only an owner removes an owner.
import { AppError } from "@/lib/domain/errors";
import { actorLabel, hasRole, requireRole, type RequestCtx } from "../context";
import { getMembershipOrThrow, ownersLeft } from "./rules";

export async function removeMember({ ctx, input: { email } }: { ctx: RequestCtx; input: { email: string } }): Promise<void> {
  requireRole(ctx.actor, "admin");
  const m = await getMembershipOrThrow(ctx, email);
  if (m.role === "owner" && !hasRole(ctx.actor, "owner")) throw new AppError("forbidden", "Only an owner can remove an owner.");
  if (m.role === "owner" && (await ownersLeft(ctx, m.workspaceId)) <= 1) throw new AppError("conflict", "The last owner cannot be removed.");
  await ctx.db.membership.delete({ where: { workspaceId_userId: { workspaceId: m.workspaceId, userId: m.userId } } });
  await ctx.db.auditEntry.create({ data: { workspaceId: m.workspaceId, actor: actorLabel(ctx.actor), action: "member.removed", subject: m.user.email } });
}
