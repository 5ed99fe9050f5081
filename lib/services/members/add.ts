// Adding a person: a new user gets a first password, an existing one is added
// as is. Admins and owners only; nobody grants a role above their own.
import { createAuditEntry } from "@/lib/db/queries/audit/create-audit-entry";
import { createMembership } from "@/lib/db/queries/members/create-membership";
import { getMembership } from "@/lib/db/queries/members/get-membership";
import { createUser } from "@/lib/db/queries/users/create-user";
import { getUserByEmail } from "@/lib/db/queries/users/get-user-by-email";
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
  const existing = await getUserByEmail(ctx.db, data.email);
  if (!existing && !data.password) throw new AppError("invalid_input", "A new person needs a first password; they can sign in with it.", { errors: [{ pointer: "/password", detail: "required for a new user" }] });
  const passwordHash = existing ? null : await hashPassword(data.password!);
  const membership = await ctx.db.$transaction(async (tx) => {
    const user = existing ?? (await createUser(tx, { email: data.email, passwordHash: passwordHash! }));
    const already = await getMembership(tx, workspaceId, user.id);
    if (already) throw new AppError("conflict", `${data.email} is already a member (${already.role}).`);
    const m = await createMembership(tx, { workspaceId, userId: user.id, role: data.role });
    await createAuditEntry(tx, { workspaceId, actor: actorLabel(ctx.actor), action: "member.added", subject: data.email, data: { role: data.role } });
    return m;
  });
  return { email: membership.user.email, name: membership.user.name, role: membership.role, since: membership.createdAt.toISOString(), you: false };
}
