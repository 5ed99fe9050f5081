// The people of a workspace, oldest membership first.
import { listMembers as readMembers } from "@/lib/db/queries/members/list-members";
import { requireRole, workspaceOf, type RequestCtx } from "../context";
import type { MemberOut } from "./rules";

export async function listMembers({ ctx }: { ctx: RequestCtx }): Promise<{ items: MemberOut[] }> {
  requireRole(ctx.actor, "member");
  const rows = await readMembers(ctx.db, workspaceOf(ctx.actor));
  const me = ctx.actor.kind === "user" ? ctx.actor.userId : null;
  return { items: rows.map((m) => ({ email: m.user.email, name: m.user.name, role: m.role, since: m.createdAt.toISOString(), you: m.userId === me })) };
}
