import { Prisma, queryRows, type Db } from "@/lib/db/client";

export type CredentialRow = { id: string; workspace_id: string; name: string; role: "owner" | "admin" | "member" | "viewer" | null; revoked: boolean; last_used_at: Date | null; snapshot: string | null };

/** The transaction snapshot (which transactions had finished), except on a standby. */
const SNAPSHOT = Prisma.raw("CASE WHEN pg_is_in_recovery() THEN NULL ELSE pg_current_snapshot()::text END");

/**
 * The agent key (`agent`) or API token with this hash, and the database's transaction snapshot read in the
 * same round trip: one row whatever is found (id null when nothing is).
 */
export async function getCredential(db: Db, hash: string, agent: boolean): Promise<CredentialRow | undefined> {
  const rows = agent
    ? await queryRows<CredentialRow>(db, Prisma.sql`
        SELECT k.id::text, k.workspace_id::text, k.name, NULL AS role, k.revoked_at IS NOT NULL AS revoked, k.last_used_at, ${SNAPSHOT} AS snapshot
        FROM (SELECT 1) AS one LEFT JOIN agent_keys k ON k.hash = ${hash}`)
    : await queryRows<CredentialRow>(db, Prisma.sql`
        SELECT t.id::text, t.workspace_id::text, t.name, t.role::text AS role, t.revoked_at IS NOT NULL AS revoked, t.last_used_at, ${SNAPSHOT} AS snapshot
        FROM (SELECT 1) AS one LEFT JOIN api_tokens t ON t.hash = ${hash}`);
  return rows[0];
}
