// Agent keys of a workspace, with when each was last used and which targets
// it reports. Admins only.
import { requireRole, workspaceOf, type RequestCtx } from "../context";

export type AgentKeyOut = {
  id: string; name: string; prefix: string; created_at: string; last_used_at: string | null; revoked_at: string | null; targets: string[];
};

export async function listAgentKeys({ ctx }: { ctx: RequestCtx }): Promise<{ items: AgentKeyOut[] }> {
  requireRole(ctx.actor, "admin");
  const workspaceId = workspaceOf(ctx.actor);
  const rows = await ctx.db.agentKey.findMany({
    where: { workspaceId },
    orderBy: [{ revokedAt: { sort: "desc", nulls: "first" } }, { name: "asc" }],
    include: { targets: { select: { name: true }, orderBy: { name: "asc" } } },
  });
  return {
    items: rows.map((k) => ({
      id: k.id, name: k.name, prefix: k.prefix, created_at: k.createdAt.toISOString(), last_used_at: k.lastUsedAt?.toISOString() ?? null,
      revoked_at: k.revokedAt?.toISOString() ?? null, targets: k.targets.map((t) => t.name),
    })),
  };
}
