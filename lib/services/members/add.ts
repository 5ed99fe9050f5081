// Adding a person: a new user gets a first password, an existing one is added
// as is. Admins and owners only; nobody grants a role above their own.
import { hashPassword } from "@/lib/auth/password";
import { AppError } from "@/lib/domain/errors";
import { actorLabel, requireRole, workspaceOf, type RequestCtx } from "../context";
import { parseMemberInput, requireGrantable, type MemberOut } from "./rules";
import { addMemberSchema } from "./schemas";

export async function addMember({ ctx, input }: { ctx: RequestCtx; input: unknown }): Promise<MemberOut> {
  requireRole(ctx.actor, "admin");
  const data = parseMemberInput(addMemberSchema, input);
  requireGrantable(ctx, data.role);
  const workspaceId = workspaceOf(ctx.actor);
  const existing = await ctx.db.user.findUnique({ where: { email: data.email } });
  if (!existing && !data.password) throw new AppError("invalid_input", "A new person needs a first password; they can sign in with it.", { errors: [{ pointer: "/password", detail: "required for a new user" }] });
  const passwordHash = existing ? null : await hashPassword(data.password!);
  const membership = await ctx.db.$transaction(async (tx) => {
    const user = existing ?? (await tx.user.create({ data: { email: data.email, passwordHash: passwordHash! } }));
    const already = await tx.membership.findUnique({ where: { workspaceId_userId: { workspaceId, userId: user.id } } });
    if (already) throw new AppError("conflict", `${data.email} is already a member (${already.role}).`);
    const m = await tx.membership.create({ data: { workspaceId, userId: user.id, role: data.role }, include: { user: true } });
    await tx.auditEntry.create({ data: { workspaceId, actor: actorLabel(ctx.actor), action: "member.added", subject: data.email, data: { role: data.role } } });
    return m;
  });
  return { email: membership.user.email, name: membership.user.name, role: membership.role, since: membership.createdAt.toISOString(), you: false };
}
