import type { DbTx } from "@/lib/db/client";

/** A service's open Helm release rows (repository a chart key): id and stored "image" (`chart:version`). */
export async function listOpenChartRuns(db: DbTx, workspaceId: string, serviceId: string): Promise<{ id: bigint; image: string; repository: string }[]> {
  return db.$queryRaw<{ id: bigint; image: string; repository: string }[]>`
    SELECT id, image, repository FROM runs
    WHERE workspace_id = ${workspaceId}::uuid AND service_id = ${serviceId}::uuid AND "to" IS NULL
      AND (repository LIKE 'oci://%' OR repository LIKE 'https://%' OR repository LIKE 'http://%' OR repository LIKE 'chart:%')`;
}

/** Point open rows at another chart repository key (the row's history is unchanged). */
export async function rekeyChartRuns(db: DbTx, rows: readonly { id: bigint; repository: string }[]): Promise<void> {
  if (rows.length === 0) return;
  await db.$executeRaw`
    UPDATE runs SET repository = v.repository
    FROM unnest(${rows.map((r) => r.id.toString())}::bigint[], ${rows.map((r) => r.repository)}::text[]) AS v(id, repository)
    WHERE runs.id = v.id AND runs."to" IS NULL`;
}
