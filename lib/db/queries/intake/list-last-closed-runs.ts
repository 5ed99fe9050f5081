import type { ClosedRun } from "@/lib/domain/intake/plan";
import type { Db } from "@/lib/db/client";

/** The last closed run of each service's `containers` on a target. */
export async function listLastClosedRuns(db: Db, targetId: string, containers: string[]): Promise<ClosedRun[]> {
  return db.$queryRaw<ClosedRun[]>`
    SELECT DISTINCT ON (r.service_id, r.container) r.id::text AS id, s.name AS "serviceName", r.container, r.image, r.digest, r."from"
    FROM runs r JOIN services s ON s.id = r.service_id
    WHERE r.target_id = ${targetId}::uuid AND r."to" IS NOT NULL AND r.container = ANY(${containers}::text[])
    ORDER BY r.service_id, r.container, r."to" DESC, r.id DESC`;
}
