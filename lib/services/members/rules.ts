// Who may grant what, and the membership a change is about.
import { countOwners } from "@/lib/db/queries/members/count-owners";
import { getMembershipByEmail } from "@/lib/db/queries/members/get-membership-by-email";
import type { z } from "zod";
import { AppError } from "@/lib/domain/errors";
import { hasRole, workspaceOf, type RequestCtx, type Role } from "../context";

export type MemberOut = { email: string; name: string | null; role: Role; since: string; you: boolean };

export function parseMemberInput<T>(schema: z.ZodType<T>, input: unknown): T {
  const r = schema.safeParse(input);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    throw new AppError("invalid_input", `${String(issue.path[0] ?? "input")}: ${issue.message}`, { errors: [{ pointer: `/${issue.path.join("/")}`, detail: issue.message }] });
  }
  return r.data;
}

export function requireGrantable(ctx: RequestCtx, role: Role) {
  if (!hasRole(ctx.actor, role)) throw new AppError("forbidden", `Only an ${role === "owner" ? "owner" : "admin or owner"} can grant the ${role} role.`);
}

export async function getMembershipOrThrow(ctx: RequestCtx, email: string) {
  const workspaceId = workspaceOf(ctx.actor);
  const m = await getMembershipByEmail(ctx.db, workspaceId, email.trim().toLowerCase());
  if (!m) throw new AppError("not_found", `${email} is not a member of this workspace.`);
  return m;
}

export async function ownersLeft(ctx: RequestCtx, workspaceId: string): Promise<number> {
  return countOwners(ctx.db, workspaceId);
}
