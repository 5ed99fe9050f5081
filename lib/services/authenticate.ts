// Bearer credentials → an actor. API tokens (dw_…) act with their role in
// their workspace; agent keys (dwa_…) can only report.
import type { Db } from "@/lib/db/client";
import { AGENT_KEY_PREFIX, hashSecret, TOKEN_PREFIX } from "@/lib/auth/secrets";
import type { Actor } from "./context";

const TOUCH_EVERY_MS = 60_000;

export async function authenticateBearer(db: Db, value: string, now: Date): Promise<Actor | null> {
  // Lookup by the SHA-256 of the value: the comparison is an index probe on a
  // hash, so the secret itself is never compared byte by byte.
  const hash = hashSecret(value);
  const stale = new Date(now.getTime() - TOUCH_EVERY_MS);
  if (value.startsWith(AGENT_KEY_PREFIX)) {
    const key = await db.agentKey.findUnique({ where: { hash } });
    if (!key || key.revokedAt) return null;
    if (!key.lastUsedAt || key.lastUsedAt < stale) {
      await db.agentKey.update({ where: { id: key.id }, data: { lastUsedAt: now } });
    }
    return { kind: "agent", agentKeyId: key.id, workspaceId: key.workspaceId, name: key.name };
  }
  if (value.startsWith(TOKEN_PREFIX)) {
    const token = await db.apiToken.findUnique({ where: { hash } });
    if (!token || token.revokedAt) return null;
    if (!token.lastUsedAt || token.lastUsedAt < stale) {
      await db.apiToken.update({ where: { id: token.id }, data: { lastUsedAt: now } });
    }
    return { kind: "token", tokenId: token.id, workspaceId: token.workspaceId, role: token.role };
  }
  return null;
}

/** A signed-in user's actor in the workspace they chose (cookie), else their first one. */
export async function actorForUser(db: Db, userId: string, preferredWorkspaceId: string | null): Promise<Actor | null> {
  const memberships = await db.membership.findMany({
    where: { userId },
    include: { user: { select: { email: true } } },
    orderBy: { createdAt: "asc" },
  });
  const chosen = memberships.find((m) => m.workspaceId === preferredWorkspaceId) ?? memberships[0];
  if (!chosen) return null;
  return { kind: "user", userId, email: chosen.user.email, workspaceId: chosen.workspaceId, role: chosen.role };
}
