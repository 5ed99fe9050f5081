// First run: a workspace and its owner. Idempotent for the same values;
// refuses to change an existing owner's password or take over a workspace.
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import { AppError } from "@/lib/domain/errors";
import type { RequestCtx } from "../context";
import { setupInputSchema } from "./schemas";

export type SetupResult = { workspaceId: string; userId: string; created: { workspace: boolean; user: boolean } };

export async function setupWorkspace({ ctx: { db }, input: raw }: { ctx: Pick<RequestCtx, "db">; input: unknown }): Promise<SetupResult> {
  const parsed = setupInputSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new AppError("invalid_input", `${String(issue.path[0] ?? "input")}: ${issue.message}`);
  }
  const input = parsed.data;
  const existingUser = await db.user.findUnique({ where: { email: input.email } });
  if (existingUser && !(await verifyPassword(existingUser.passwordHash, input.password))) {
    throw new AppError("conflict", `A user ${input.email} already exists with another password.`);
  }
  const passwordHash = existingUser ? existingUser.passwordHash : await hashPassword(input.password);
  return db.$transaction(async (tx) => {
    const user = existingUser ?? (await tx.user.create({ data: { email: input.email, passwordHash, name: input.name ?? null } }));
    const existingWs = await tx.workspace.findUnique({ where: { name: input.workspace }, include: { memberships: true } });
    if (existingWs) {
      const mine = existingWs.memberships.find((m) => m.userId === user.id);
      if (!mine || mine.role !== "owner") {
        throw new AppError("conflict", `Workspace ${input.workspace} already exists with another owner.`);
      }
      return { workspaceId: existingWs.id, userId: user.id, created: { workspace: false, user: !existingUser } };
    }
    const ws = await tx.workspace.create({ data: { name: input.workspace } });
    await tx.membership.create({ data: { workspaceId: ws.id, userId: user.id, role: "owner" } });
    await tx.auditEntry.create({ data: { workspaceId: ws.id, actor: `user:${user.email}`, action: "workspace.created", subject: ws.name } });
    return { workspaceId: ws.id, userId: user.id, created: { workspace: true, user: !existingUser } };
  });
}
