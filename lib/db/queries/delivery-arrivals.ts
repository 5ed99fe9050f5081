// Deploys folded out of history by retention (lib/services/retention.ts), as
// the delivery queries' arrival rows, for a UNION ALL beside the history that
// is left: the delivery statistics then count the same for old periods.
import { Prisma } from "@/lib/db/client";

/**
 * Rows of `delivery_arrivals` that the window reads, by the history rows' own
 * rule (started before `to`, still running at or after `since`). The version is
 * already exact: it is given as tag, tag version and resolved version alike.
 */
export function foldedArrivalsSql(workspaceId: string, since: Date, to: Date, opts: { repositoryColumn?: boolean } = {}): Prisma.Sql {
  const repository = opts.repositoryColumn ? Prisma.sql`'' AS repository, ` : Prisma.empty;
  return Prisma.sql`
    SELECT a.service_id::text, a.environment_id::text, ${repository}a.version AS tag, a.version, a.version AS resolved_tag, a.first_from AS since
    FROM delivery_arrivals a
    WHERE a.workspace_id = ${workspaceId}::uuid AND a.first_from < ${to} AND a.last_to >= ${since}`;
}
