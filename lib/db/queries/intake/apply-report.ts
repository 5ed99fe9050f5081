import type { Workload } from "@/lib/domain/agent-report";
import type { ReportChange } from "@/lib/domain/intake/plan";
import { isoInstant, runRepositoryOf, versionOfTag } from "@/lib/domain/intake/report";
import { Prisma, queryRows, type Db } from "@/lib/db/client";
import { setAgentSource, type ReportInput, type ReportTarget } from "./ensure-report-target";

/**
 * One statement: lock the target row if it is still the version read, then close, reopen and open history
 * rows, run `extra` (more CTEs, which may use the locked target as `t`) and record the report on the target.
 * False (nothing written) when the row changed since it was read.
 */
export async function applyReport(
  db: Db, input: ReportInput, target: Pick<ReportTarget, "id" | "version" | "reportEnvironmentId">, change: ReportChange, extra: Prisma.Sql[] = [],
): Promise<boolean> {
  const { workspaceId, report, agentKeyId, fingerprint, observedAt, now } = input;
  const environmentId = target.reportEnvironmentId;
  const parts: Prisma.Sql[] = [];
  if (change.closeAt.size) {
    // Every row that ends with its end time, as one JSON document (see insertRuns).
    const ends = JSON.stringify([...change.closeAt].map(([id, end]) => ({ id, end })));
    parts.push(Prisma.sql`
      closed AS (
        UPDATE runs SET "to" = v."end" FROM t, json_to_recordset(${ends}::json) AS v(id bigint, "end" timestamptz)
        WHERE runs.id = v.id AND runs.target_id = t.id AND runs."to" IS NULL)`);
  }
  if (change.reopen.length) {
    parts.push(Prisma.sql`
      reopened AS (UPDATE runs SET "to" = NULL FROM t WHERE runs.id = ANY(${change.reopen}::bigint[]) AND runs.target_id = t.id)`);
  }
  if (change.fresh.length) {
    parts.push(Prisma.sql`opened AS (${insertRuns({ workspaceId, environmentId, declared: report.target.kind === "compose_git" }, change.fresh)})`);
  }
  parts.push(...extra);
  const [row] = await queryRows<{ applied: number }>(db, Prisma.sql`
    WITH t AS (SELECT id FROM targets WHERE id = ${target.id}::uuid AND xmin = ${target.version}::xid FOR NO KEY UPDATE),
    ${parts.length ? Prisma.sql`${Prisma.join(parts, ",\n")},` : Prisma.empty}
    recorded AS (
      UPDATE targets SET environment_id = ${environmentId}::uuid, last_observed_at = ${observedAt}, last_report_at = ${now},
        last_report_hash = ${fingerprint}, agent_key_id = ${agentKeyId}::uuid${setAgentSource(report)}
      FROM t WHERE targets.id = t.id
      RETURNING 1)
    SELECT count(*)::int AS applied FROM recorded`);
  return (row?.applied ?? 0) > 0;
}

/** Holds only once the statement locked the target as `t`: a part of it that must write nothing otherwise checks it. */
export function targetLockedSql(): Prisma.Sql {
  return Prisma.sql`EXISTS (SELECT 1 FROM t)`;
}

/** `insert` (the registration of the report's repositories) as one of applyReport's `extra` CTEs. */
export function repositoriesCteSql(insert: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`repositories AS (${insert})`;
}

/**
 * New history rows for the target locked as `t`, as one JSON document: JSON.stringify is native, where
 * the driver writes array parameters element by element (a report's hot path). A service that vanished
 * since the report created it leaves service_id NULL, which fails the statement.
 */
function insertRuns(at: { workspaceId: string; environmentId: string; declared: boolean }, workloads: Workload[]): Prisma.Sql {
  const rows = JSON.stringify(workloads.map((w) => {
    const { repository, tag } = runRepositoryOf(w);
    return {
      service: w.service, container: w.container, is_main: w.main, image: w.image, repository, tag, version: versionOfTag(tag),
      digest: w.digest, platform_digest: w.platform_digest, platform: w.platform, since: isoInstant(w.since),
    };
  }));
  return Prisma.sql`
    INSERT INTO runs (workspace_id, service_id, environment_id, target_id, container, is_main, image, repository, tag, version, digest, platform_digest, platform, declared, "from")
    SELECT ${at.workspaceId}::uuid, (SELECT s.id FROM services s WHERE s.workspace_id = ${at.workspaceId}::uuid AND s.name = v.service),
           ${at.environmentId}::uuid, t.id, v.container, v.is_main, v.image, v.repository, v.tag, v.version,
           v.digest, v.platform_digest, v.platform, ${at.declared}, v.since
    FROM t, json_to_recordset(${rows}::json) AS v(
      service text, container text, is_main boolean, image text, repository text, tag text, version text,
      digest text, platform_digest text, platform text, since timestamptz)`;
}
