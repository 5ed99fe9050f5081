import { Prisma, statementRows, type DbTx } from "@/lib/db/client";
import { RESOLVED_TAG_JOIN } from "@/lib/db/queries/upstream/resolved-tag-join";

/** A run as the gate reads it: `resolved` is the release its digest was resolved to, where it was. */
export type GateRunRow = {
  environmentId: string; container: string; isMain: boolean; repository: string; tag: string; version: string | null; resolved: string | null;
  digest: string | null; platformDigest: string | null; from: Date; to: Date | null;
};

/** Every history row of the services named, sidecars too (declared-only rows left out), by service id. */
export async function listGateRuns(db: DbTx, workspaceId: string, serviceIds: readonly string[]): Promise<Map<string, GateRunRow[]>> {
  const out = new Map<string, GateRunRow[]>(serviceIds.map((id) => [id, []]));
  if (serviceIds.length === 0) return out;
  const rows = await statementRows<GateRunRow & { serviceId: string }>(db, Prisma.sql`
    SELECT r.service_id::text AS "serviceId", r.environment_id::text AS "environmentId", r.container, r.is_main AS "isMain", r.repository, r.tag, r.version, res.tag AS resolved,
           r.digest, r.platform_digest AS "platformDigest", r."from", r."to"
    FROM runs r
    ${RESOLVED_TAG_JOIN}
    WHERE r.workspace_id = ${workspaceId}::uuid AND r.service_id = ANY(${serviceIds}::uuid[]) AND NOT r.declared`);
  for (const { serviceId, ...row } of rows) out.get(serviceId)?.push(row);
  return out;
}
