// A new badge key. Admins only.
import { createAuditEntry } from "@/lib/db/queries/audit/create-audit-entry";
import { replaceBadgeKey } from "@/lib/db/queries/badges/replace-badge-key";
import { actorLabel, requireRole, workspaceOf, type RequestCtx } from "../context";
import { newKey } from "./keys";

/** A new key: every address handed out stops loading at once. */
export async function resetBadgeKey({ ctx }: { ctx: RequestCtx }): Promise<{ key_id: string; reset_at: string }> {
  requireRole(ctx.actor, "admin");
  const workspaceId = workspaceOf(ctx.actor);
  const key = newKey();
  const now = ctx.now;
  await ctx.db.$transaction(async (tx) => {
    await replaceBadgeKey(tx, workspaceId, key, now);
    await createAuditEntry(tx, { workspaceId, actor: actorLabel(ctx.actor), action: "badge_key.reset", subject: workspaceId });
  });
  return { key_id: key.keyId, reset_at: now.toISOString() };
}
