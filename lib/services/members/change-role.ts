// A member's new role. The last owner cannot be demoted; only an owner changes
// an owner's role.
import { createAuditEntry } from "@/lib/db/queries/audit/create-audit-entry";
import { updateMembershipRole } from "@/lib/db/queries/members/update-membership-role";
import { AppError } from "@/lib/domain/errors";
import { actorLabel, hasRole, requireRole, type RequestCtx } from "../context";
import { getMembershipOrThrow, ownersLeft, parseMemberInput, requireGrantable, type MemberOut } from "./rules";
import { roleSchema } from "./schemas";

export async function changeMemberRole({ ctx, input: { email, role } }: { ctx: RequestCtx; input: { email: string; role: unknown } }): Promise<MemberOut> {
  requireRole(ctx.actor, "admin");
  const next = parseMemberInput(roleSchema, role);
  const m = await getMembershipOrThrow(ctx, email);
  requireGrantable(ctx, next);
  if (m.role === "owner" && !hasRole(ctx.actor, "owner")) throw new AppError("forbidden", "Only an owner can change an owner's role.");
  if (m.role === "owner" && next !== "owner" && (await ownersLeft(ctx, m.workspaceId)) <= 1) throw new AppError("conflict", "A workspace keeps at least one owner: make someone else owner first.");
  const updated = await updateMembershipRole(ctx.db, m.workspaceId, m.userId, next);
  await createAuditEntry(ctx.db, { workspaceId: m.workspaceId, actor: actorLabel(ctx.actor), action: "member.role_changed", subject: m.user.email, data: { from: m.role, to: next } });
  return { email: updated.user.email, name: updated.user.name, role: updated.role, since: updated.createdAt.toISOString(), you: ctx.actor.kind === "user" && ctx.actor.userId === m.userId };
}
