import { Prisma, statementRows, type DbTx } from "@/lib/db/client";
import type { ServiceFacts } from "@/lib/db/queries/services/list-service-facts";

/**
 * The services named, as loadServiceFacts shapes them (the repository their main containers
 * run now, else the one their Compose files declare), in one statement on the pool: the gate
 * answers admission reviews, where the engine's several round trips would be most of the cost.
 * `upstream` is left null: the gate does not show check states.
 */
export async function listGateServices(db: DbTx, workspaceId: string, names: readonly string[]): Promise<ServiceFacts[]> {
  if (names.length === 0) return [];
  const rows = await statementRows<Omit<ServiceFacts, "upstream">>(db, Prisma.sql`
    SELECT s.id::text, s.name, s.team, s.application, s.repository, s.policy, s.created_at AS "createdAt",
           coalesce(
             (SELECT r.repository FROM runs r WHERE r.workspace_id = s.workspace_id AND r.service_id = s.id AND r.is_main AND r."to" IS NULL AND NOT r.declared ORDER BY r."from" DESC LIMIT 1),
             (SELECT r.repository FROM runs r WHERE r.workspace_id = s.workspace_id AND r.service_id = s.id AND r."to" IS NULL AND r.declared ORDER BY r."from" DESC LIMIT 1)
           ) AS "runningRepository"
    FROM services s WHERE s.workspace_id = ${workspaceId}::uuid AND s.name = ANY(${[...names]}::text[])`);
  return rows.map((r) => ({ ...r, createdAt: new Date(r.createdAt), upstream: null }));
}
