// First run: a workspace and its owner. Idempotent for the same values;
// refuses to change an existing owner's password or take over a workspace.
import { createAuditEntry } from "@/lib/db/queries/audit/create-audit-entry";
import { createMembership } from "@/lib/db/queries/members/create-membership";
import { createUser } from "@/lib/db/queries/users/create-user";
import { getUserByEmail } from "@/lib/db/queries/users/get-user-by-email";
import { createWorkspace } from "@/lib/db/queries/workspaces/create-workspace";
import { getWorkspaceWithMembers } from "@/lib/db/queries/workspaces/get-workspace-with-members";
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
  const existingUser = await getUserByEmail(db, input.email);
  if (existingUser && !(await verifyPassword(existingUser.passwordHash, input.password))) {
    throw new AppError("conflict", `A user ${input.email} already exists with another password.`);
  }
  const passwordHash = existingUser ? null : await hashPassword(input.password);
  return db.$transaction(async (tx) => {
    const user = existingUser ?? (await createUser(tx, { email: input.email, passwordHash: passwordHash!, name: input.name ?? null }));
    const existingWs = await getWorkspaceWithMembers(tx, input.workspace);
    if (existingWs) {
      const mine = existingWs.memberships.find((m) => m.userId === user.id);
      if (!mine || mine.role !== "owner") {
        throw new AppError("conflict", `Workspace ${input.workspace} already exists with another owner.`);
      }
      return { workspaceId: existingWs.id, userId: user.id, created: { workspace: false, user: !existingUser } };
    }
    const ws = await createWorkspace(tx, input.workspace);
    await createMembership(tx, { workspaceId: ws.id, userId: user.id, role: "owner" });
    await createAuditEntry(tx, { workspaceId: ws.id, actor: `user:${user.email}`, action: "workspace.created", subject: ws.name });
    return { workspaceId: ws.id, userId: user.id, created: { workspace: true, user: !existingUser } };
  });
}
