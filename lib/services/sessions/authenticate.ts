// Bearer credentials → an actor. API tokens (dw_…) act with their role in
// their workspace; agent keys (dwa_…) can only report.
import type { Db } from "@/lib/db/client";
import { listMembershipsOfUser } from "@/lib/db/queries/members/list-memberships-of-user";
import { getCredential, type CredentialRow } from "@/lib/db/queries/sessions/get-credential";
import { touchCredential } from "@/lib/db/queries/sessions/touch-credential";
import { AGENT_KEY_PREFIX, hashSecret, TOKEN_PREFIX } from "@/lib/auth/secrets";
import type { Actor, Role } from "../context";

/**
 * "Last used" is kept to within this: each touch is a write, and a write moves the snapshot
 * that tells cached insights (lib/services/cache/insights-cache.ts) the database changed.
 */
const TOUCH_EVERY_MS = 5 * 60_000;

export async function authenticateBearer(db: Db, value: string, now: Date): Promise<Actor | null> {
  return (await authenticateBearerWithSnapshot(db, value, now)).actor;
}

/**
 * The actor, and the database's transaction snapshot read in the same round
 * trip (null on a standby): a request that reads cached insights next needs no
 * query of its own to know whether the cache is current.
 */
export async function authenticateBearerWithSnapshot(db: Db, value: string, now: Date): Promise<{ actor: Actor | null; snapshot: string | null }> {
  // Lookup by the SHA-256 of the value: the comparison is an index probe on a
  // hash, so the secret itself is never compared byte by byte.
  const hash = hashSecret(value);
  const stale = new Date(now.getTime() - TOUCH_EVERY_MS);
  const agent = value.startsWith(AGENT_KEY_PREFIX);
  if (!agent && !value.startsWith(TOKEN_PREFIX)) return { actor: null, snapshot: null };
  const row = await getCredential(db, hash, agent);
  const snapshot = row?.snapshot ?? null;
  if (!row || row.id === null || row.revoked) return { actor: null, snapshot };
  if (!row.last_used_at || row.last_used_at < stale) {
    await touchCredential(db, row.id, agent, now);
    // The touch is a transaction of its own, but changes nothing an insight shows: the snapshot read
    // before it still describes this request's view.
    return { actor: actorOf(agent, row), snapshot };
  }
  return { actor: actorOf(agent, row), snapshot };
}

function actorOf(agent: boolean, row: CredentialRow): Actor {
  return agent
    ? { kind: "agent", agentKeyId: row.id, workspaceId: row.workspace_id, name: row.name }
    : { kind: "token", tokenId: row.id, workspaceId: row.workspace_id, role: row.role as Role };
}

/** A signed-in user's actor in the workspace they chose (cookie), else their first one. */
export async function actorForUser(db: Db, userId: string, preferredWorkspaceId: string | null): Promise<Actor | null> {
  const memberships = await listMembershipsOfUser(db, userId);
  const chosen = memberships.find((m) => m.workspaceId === preferredWorkspaceId) ?? memberships[0];
  if (!chosen) return null;
  return { kind: "user", userId, email: chosen.user.email, workspaceId: chosen.workspaceId, role: chosen.role };
}
