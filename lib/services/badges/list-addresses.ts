// A service's badge addresses, as its page offers them.
import { requireRole, workspaceOf, type RequestCtx } from "../context";
import { address, ensureBadgeKey, type BadgeAddress } from "./keys";

/** Addresses for all environments and for each given one, signed with one read of the key. */
export async function listBadgeAddresses({ ctx, input: { name, environments } }: { ctx: RequestCtx; input: { name: string; environments: string[] } }): Promise<BadgeAddress[]> {
  requireRole(ctx.actor, "member");
  const workspaceId = workspaceOf(ctx.actor);
  const key = await ensureBadgeKey(ctx.db, workspaceId);
  return [null, ...environments].map((env) => address(ctx.config.baseUrl, key, workspaceId, name, env));
}
