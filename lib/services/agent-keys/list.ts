// Agent keys of a workspace, with when each was last used and which targets
// it reports. Admins only.
import { listAgentKeys as readAgentKeys } from "@/lib/db/queries/agent-keys/list-agent-keys";
import { requireRole, workspaceOf, type RequestCtx } from "../context";

export type AgentKeyOut = {
  id: string; name: string; prefix: string; created_at: string; last_used_at: string | null; revoked_at: string | null; targets: string[];
};

export async function listAgentKeys({ ctx }: { ctx: RequestCtx }): Promise<{ items: AgentKeyOut[] }> {
  requireRole(ctx.actor, "admin");
  const workspaceId = workspaceOf(ctx.actor);
  const rows = await readAgentKeys(ctx.db, workspaceId);
  return {
    items: rows.map((k) => ({
      id: k.id, name: k.name, prefix: k.prefix, created_at: k.createdAt.toISOString(), last_used_at: k.lastUsedAt?.toISOString() ?? null,
      revoked_at: k.revokedAt?.toISOString() ?? null, targets: k.targets.map((t) => t.name),
    })),
  };
}
