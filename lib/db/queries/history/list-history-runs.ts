import { Prisma, type DbTx } from "@/lib/db/client";
import { RESOLVED_TAG_JOIN } from "@/lib/db/queries/upstream/resolved-tag-join";

export type HistoryRunRow = {
  tag: string;
  /** The tag's own version (null for `latest`); a line tag's (`1.27`) is not yet its exact version. */
  version: string | null;
  /** The release the row's digest resolved to, read now: rows stored before the resolution get it too. */
  resolved: string | null;
  repository: string;
  digest: string | null;
  declared: boolean;
  from: Date;
  to: Date | null;
  serviceId: string;
  environmentId: string;
  targetId: string;
};

/** Main history rows, newest first, of a service and/or environment, open or ended since `since`. */
export async function listHistoryRuns(db: DbTx, workspaceId: string, filter: { serviceId?: string; environmentId?: string; since: Date | null; limit: number }): Promise<HistoryRunRow[]> {
  const { serviceId, environmentId, since } = filter;
  return db.$queryRaw<HistoryRunRow[]>`
    SELECT r.tag, r.version, res.tag AS resolved, r.repository, r.digest, r.declared, r."from", r."to",
           r.service_id::text AS "serviceId", r.environment_id::text AS "environmentId", r.target_id::text AS "targetId"
    FROM (
      SELECT * FROM runs
      WHERE workspace_id = ${workspaceId}::uuid AND is_main
        ${serviceId ? Prisma.sql`AND service_id = ${serviceId}::uuid` : Prisma.empty}
        ${environmentId ? Prisma.sql`AND environment_id = ${environmentId}::uuid` : Prisma.empty}
        ${since ? Prisma.sql`AND ("to" IS NULL OR "to" >= ${since})` : Prisma.empty}
      ORDER BY "from" DESC, id DESC
      LIMIT ${filter.limit}
    ) r
    ${RESOLVED_TAG_JOIN}
    ORDER BY r."from" DESC, r.id DESC`;
}
