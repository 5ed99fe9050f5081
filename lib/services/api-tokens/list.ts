// The workspace's API tokens, newest first (never their values). Admins only.
import { listApiTokens as readApiTokens } from "@/lib/db/queries/api-tokens/list-api-tokens";
import { requireRole, workspaceOf, type RequestCtx } from "../context";

export async function listApiTokens({ ctx }: { ctx: RequestCtx }) {
  requireRole(ctx.actor, "admin");
  const rows = await readApiTokens(ctx.db, workspaceOf(ctx.actor));
  return {
    items: rows.map((t) => ({
      id: t.id, name: t.name, role: t.role, prefix: t.prefix, created_at: t.createdAt.toISOString(),
      last_used_at: t.lastUsedAt?.toISOString() ?? null, revoked_at: t.revokedAt?.toISOString() ?? null,
    })),
  };
}
