// The people of a workspace: list, add (a new user gets a password, an
// existing one is added as is), change roles and remove. Admins and owners
// manage members; nobody grants a role above their own, and the last owner
// can be neither demoted nor removed.
import { z } from "zod";
import { hashPassword, MIN_PASSWORD_LENGTH } from "@/lib/auth/password";
import { AppError } from "@/lib/domain/errors";
import { actorLabel, hasRole, requireRole, workspaceOf, type RequestCtx, type Role } from "../context";

const ROLES = ["owner", "admin", "member", "viewer"] as const satisfies readonly Role[];

export type MemberOut = { email: string; name: string | null; role: Role; since: string; you: boolean };

const emailSchema = z.string().trim().toLowerCase().email({ message: "must be an e-mail address" }).max(320);
export const addMemberSchema = z.object({
  email: emailSchema,
  role: z.enum(ROLES),
  password: z.string().min(MIN_PASSWORD_LENGTH, { message: `must be at least ${MIN_PASSWORD_LENGTH} characters` }).max(1000).optional(),
});

function parse<T>(schema: z.ZodType<T>, input: unknown): T {
  const r = schema.safeParse(input);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    throw new AppError("invalid_input", `${String(issue.path[0] ?? "input")}: ${issue.message}`, { errors: [{ pointer: `/${issue.path.join("/")}`, detail: issue.message }] });
  }
  return r.data;
}

function requireGrantable(ctx: RequestCtx, role: Role) {
  if (!hasRole(ctx.actor, role)) throw new AppError("forbidden", `Only an ${role === "owner" ? "owner" : "admin or owner"} can grant the ${role} role.`);
}

export async function listMembers({ ctx }: { ctx: RequestCtx }): Promise<{ items: MemberOut[] }> {
  requireRole(ctx.actor, "member");
  const rows = await ctx.db.membership.findMany({ where: { workspaceId: workspaceOf(ctx.actor) }, include: { user: true }, orderBy: { createdAt: "asc" } });
  const me = ctx.actor.kind === "user" ? ctx.actor.userId : null;
  return { items: rows.map((m) => ({ email: m.user.email, name: m.user.name, role: m.role, since: m.createdAt.toISOString(), you: m.userId === me })) };
}

export async function addMember({ ctx, input }: { ctx: RequestCtx; input: unknown }): Promise<MemberOut> {
  requireRole(ctx.actor, "admin");
  const data = parse(addMemberSchema, input);
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

async function getMembershipOrThrow(ctx: RequestCtx, email: string) {
  const workspaceId = workspaceOf(ctx.actor);
  const m = await ctx.db.membership.findFirst({ where: { workspaceId, user: { email: email.trim().toLowerCase() } }, include: { user: true } });
  if (!m) throw new AppError("not_found", `${email} is not a member of this workspace.`);
  return m;
}

async function ownersLeft(ctx: RequestCtx, workspaceId: string): Promise<number> {
  return ctx.db.membership.count({ where: { workspaceId, role: "owner" } });
}

export async function changeMemberRole({ ctx, email, role }: { ctx: RequestCtx; email: string; role: unknown }): Promise<MemberOut> {
  requireRole(ctx.actor, "admin");
  const next = parse(z.enum(ROLES), role);
  const m = await getMembershipOrThrow(ctx, email);
  requireGrantable(ctx, next);
  if (m.role === "owner" && !hasRole(ctx.actor, "owner")) throw new AppError("forbidden", "Only an owner can change an owner's role.");
  if (m.role === "owner" && next !== "owner" && (await ownersLeft(ctx, m.workspaceId)) <= 1) throw new AppError("conflict", "A workspace keeps at least one owner: make someone else owner first.");
  const updated = await ctx.db.membership.update({ where: { workspaceId_userId: { workspaceId: m.workspaceId, userId: m.userId } }, data: { role: next }, include: { user: true } });
  await ctx.db.auditEntry.create({ data: { workspaceId: m.workspaceId, actor: actorLabel(ctx.actor), action: "member.role_changed", subject: m.user.email, data: { from: m.role, to: next } } });
  return { email: updated.user.email, name: updated.user.name, role: updated.role, since: updated.createdAt.toISOString(), you: ctx.actor.kind === "user" && ctx.actor.userId === m.userId };
}

export async function removeMember({ ctx, email }: { ctx: RequestCtx; email: string }): Promise<void> {
  requireRole(ctx.actor, "admin");
  const m = await getMembershipOrThrow(ctx, email);
  if (m.role === "owner" && !hasRole(ctx.actor, "owner")) throw new AppError("forbidden", "Only an owner can remove an owner.");
  if (m.role === "owner" && (await ownersLeft(ctx, m.workspaceId)) <= 1) throw new AppError("conflict", "The last owner cannot be removed.");
  await ctx.db.membership.delete({ where: { workspaceId_userId: { workspaceId: m.workspaceId, userId: m.userId } } });
  await ctx.db.auditEntry.create({ data: { workspaceId: m.workspaceId, actor: actorLabel(ctx.actor), action: "member.removed", subject: m.user.email } });
}
