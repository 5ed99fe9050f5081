// A new badge key. Admins only.
import { actorLabel, requireRole, workspaceOf, type RequestCtx } from "../context";
import { newKey } from "./keys";

/** A new key: every address handed out stops loading at once. */
export async function resetBadgeKey({ ctx }: { ctx: RequestCtx }): Promise<{ key_id: string; reset_at: string }> {
  requireRole(ctx.actor, "admin");
  const workspaceId = workspaceOf(ctx.actor);
  const key = newKey();
  const now = ctx.now;
  await ctx.db.$transaction(async (tx) => {
    await tx.badgeKey.upsert({ where: { workspaceId }, create: { workspaceId, ...key, createdAt: now }, update: { ...key, createdAt: now } });
    await tx.auditEntry.create({ data: { workspaceId, actor: actorLabel(ctx.actor), action: "badge_key.reset", subject: workspaceId } });
  });
  return { key_id: key.keyId, reset_at: now.toISOString() };
}
