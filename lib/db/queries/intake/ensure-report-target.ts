import type { AgentReport } from "@/lib/domain/agent-report";
import type { OpenRun, TargetSnapshot } from "@/lib/domain/intake/plan";
import { Prisma, queryRows, type Db } from "@/lib/db/client";

/** `, config = …` keeping where an agent reads its Compose files (config.agent_source), or nothing without a source. */
export function setAgentSource(report: AgentReport): Prisma.Sql {
  const source = report.target.source;
  if (!source) return Prisma.empty;
  return Prisma.sql`, config = targets.config || jsonb_build_object('agent_source', ${JSON.stringify(source)}::jsonb)`;
}

export type ReportInput = { workspaceId: string; report: AgentReport; agentKeyId: string | null; fingerprint: string; observedAt: Date; now: Date };

export type ReportTarget = TargetSnapshot & {
  id: string;
  /** Row version (xmin) when read: the write applies only to this version. */
  version: string;
};

/**
 * One statement: create the environment, target and (with `createServices`) services the report names that do not exist yet,
 * fill services' empty application from the report, and either apply a repeated report (same workloads,
 * same environment, not stale: only the observation time moves) or read the target with its open history.
 * "repeated" when applied; null when a concurrent report's insert of the environment or target won.
 * `full` false: create neither environment nor target (the caller has seen them), null when either is missing.
 */
export async function ensureReportTarget(db: Db, input: ReportInput, full: boolean, createServices: boolean): Promise<ReportTarget | "repeated" | null> {
  const { workspaceId, report, agentKeyId, fingerprint, observedAt, now } = input;
  const ws = workspaceId;
  // Names in order, so that concurrent reports creating overlapping services never wait on each other in a cycle.
  const names = [...new Set(report.workloads.map((w) => w.service))].sort();
  const applications = new Map<string, string>();
  for (const w of report.workloads) if (w.application && !applications.has(w.service)) applications.set(w.service, w.application);
  const apps = names.map((n) => applications.get(n) ?? null);
  const services = !createServices || names.length === 0 ? Prisma.empty : Prisma.sql`
    new_services AS (
      INSERT INTO services (id, workspace_id, name, application, check_due_at)
      SELECT gen_random_uuid(), ${ws}::uuid, v.name, v.application, ${now}
      FROM unnest(${names}::text[], ${apps}::text[]) AS v(name, application)
      WHERE NOT EXISTS (SELECT 1 FROM services s WHERE s.workspace_id = ${ws}::uuid AND s.name = v.name)
      ON CONFLICT (workspace_id, name) DO NOTHING),`;
  // The application a runtime reports fills an empty one.
  const filled = applications.size === 0 ? Prisma.empty : Prisma.sql`
    filled AS (
      UPDATE services SET application = v.application
      FROM unnest(${[...applications.keys()]}::text[], ${[...applications.values()]}::text[]) AS v(name, application)
      WHERE services.workspace_id = ${ws}::uuid AND services.name = v.name AND services.application IS NULL),`;
  // A new environment goes to the end of the pipeline for an admin to place.
  const newEnvironment = !full ? Prisma.sql`env AS (SELECT id FROM env0),` : Prisma.sql`
    env1 AS (
      INSERT INTO environments (id, workspace_id, name, position, production, created_at)
      SELECT gen_random_uuid(), ${ws}::uuid, ${report.environment}, coalesce((SELECT max(position) FROM environments WHERE workspace_id = ${ws}::uuid), 0) + 10, false, now()
      WHERE NOT EXISTS (SELECT 1 FROM env0)
      ON CONFLICT (workspace_id, name) DO NOTHING
      RETURNING id),
    env AS (SELECT id FROM env0 UNION ALL SELECT id FROM env1),`;
  const newTarget = !full ? Prisma.sql`t AS (SELECT * FROM t0 WHERE NOT EXISTS (SELECT 1 FROM repeated))` : Prisma.sql`
    t1 AS (
      INSERT INTO targets (id, workspace_id, environment_id, name, kind, agent_key_id, config, created_at)
      SELECT gen_random_uuid(), ${ws}::uuid, env.id, ${report.target.name}, ${report.target.kind}::"TargetKind", ${agentKeyId}::uuid,
        ${report.target.source ? JSON.stringify({ agent_source: report.target.source }) : "{}"}::jsonb, ${now} FROM env
      WHERE NOT EXISTS (SELECT 1 FROM t0)
      ON CONFLICT (workspace_id, name) DO NOTHING
      RETURNING id, environment_id, kind, last_observed_at, last_report_hash, xmin::text AS version),
    t AS (SELECT * FROM t0 WHERE NOT EXISTS (SELECT 1 FROM repeated) UNION ALL SELECT * FROM t1)`;
  type Row = { repeated: number; environment_id: string | null; target_id: string | null; target_environment_id: string | null; kind: string | null; last_observed_at: Date | null; last_report_hash: string | null; version: string | null; open: string | null };
  const [row] = await queryRows<Row>(db, Prisma.sql`
    WITH env0 AS (SELECT id FROM environments WHERE workspace_id = ${ws}::uuid AND name = ${report.environment}),
    ${newEnvironment}
    ${services}
    ${filled}
    repeated AS (
      UPDATE targets SET last_observed_at = ${observedAt}, last_report_at = ${now}, agent_key_id = ${agentKeyId}::uuid${setAgentSource(report)}
      WHERE workspace_id = ${ws}::uuid AND name = ${report.target.name} AND kind = ${report.target.kind}::"TargetKind"
        AND last_report_hash = ${fingerprint} AND environment_id = (SELECT id FROM env0)
        AND (last_observed_at IS NULL OR last_observed_at <= ${observedAt})
      RETURNING id),
    t0 AS (
      SELECT id, environment_id, kind, last_observed_at, last_report_hash, xmin::text AS version FROM targets
      WHERE workspace_id = ${ws}::uuid AND name = ${report.target.name}),
    ${newTarget}
    SELECT (SELECT count(*) FROM repeated)::int AS repeated, (SELECT id::text FROM env LIMIT 1) AS environment_id,
      t.id::text AS target_id, t.environment_id::text AS target_environment_id, t.kind::text AS kind, t.last_observed_at, t.last_report_hash, t.version,
      CASE WHEN t.id IS NOT NULL AND (t.last_observed_at IS NULL OR t.last_observed_at <= ${observedAt}) THEN (
        -- The service's name by its key, row by row: a target holds tens of open rows, a workspace thousands of services.
        SELECT coalesce(json_agg(json_build_array(r.id::text, (SELECT s.name FROM services s WHERE s.id = r.service_id), r.container, r.image, r.digest, r."from")), '[]')::text
        FROM runs r
        WHERE r.target_id = t.id AND r."to" IS NULL) END AS open
    FROM (SELECT 1) AS one LEFT JOIN t ON true`);
  if (!row) throw new Error("the report's target read returned no row");
  if (row.repeated > 0) return "repeated";
  if (row.environment_id === null || row.target_id === null) return null;
  type Cells = [string, string, string, string, string | null, string];
  const open: OpenRun[] = (JSON.parse(row.open ?? "[]") as Cells[]).map((c) => ({ id: c[0], serviceName: c[1], container: c[2], image: c[3], digest: c[4], from: Date.parse(c[5]) }));
  return {
    id: row.target_id, version: row.version!, environmentId: row.target_environment_id!, reportEnvironmentId: row.environment_id, kind: row.kind!,
    lastObservedAt: row.last_observed_at, lastReportHash: row.last_report_hash, open,
  };
}
