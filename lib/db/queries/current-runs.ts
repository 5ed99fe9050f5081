// What runs (or is declared) now, per workspace: open history rows joined
// with their target and, for moving tags, the exact version their digest was
// resolved to. The one read model the matrix, drift and insights share.
import type { Db } from "@/lib/db/client";
import { RESOLVED_TAG_JOIN } from "@/lib/db/queries/resolved-tag";

export type CurrentRunRow = {
  runId: bigint;
  serviceId: string;
  environmentId: string;
  targetId: string;
  targetName: string;
  targetKind: string;
  container: string;
  image: string;
  repository: string;
  tag: string;
  /** The tag's own version when it names one (a line tag like `1.27` may still move: see lib/domain/running-version.ts). */
  tagVersion: string | null;
  /** The exact version tag the running digest matched upstream, if any. */
  resolvedVersion: string | null;
  digest: string | null;
  platformDigest: string | null;
  declared: boolean;
  since: Date;
};

export async function loadCurrentRuns(db: Db, workspaceId: string, opts: { serviceIds?: string[] } = {}): Promise<CurrentRunRow[]> {
  const serviceFilter = opts.serviceIds ?? null;
  const rows = await db.$queryRaw<
    {
      run_id: bigint; service_id: string; environment_id: string; target_id: string; target_name: string; target_kind: string;
      container: string; image: string; repository: string; tag: string; version: string | null; resolved_tag: string | null;
      digest: string | null; platform_digest: string | null; declared: boolean; from: Date;
    }[]
  >`
    SELECT r.id AS run_id, r.service_id::text, r.environment_id::text, r.target_id::text, t.name AS target_name, t.kind::text AS target_kind,
           r.container, r.image, r.repository, r.tag, r.version, res.tag AS resolved_tag, r.digest, r.platform_digest, r.declared, r."from"
    FROM runs r
    JOIN targets t ON t.id = r.target_id
    ${RESOLVED_TAG_JOIN}
    WHERE r.workspace_id = ${workspaceId}::uuid AND r."to" IS NULL AND r.is_main
      AND (${serviceFilter}::uuid[] IS NULL OR r.service_id = ANY(${serviceFilter}::uuid[]))`;
  return rows.map((r) => ({
    runId: r.run_id,
    serviceId: r.service_id,
    environmentId: r.environment_id,
    targetId: r.target_id,
    targetName: r.target_name,
    targetKind: r.target_kind,
    container: r.container,
    image: r.image,
    repository: r.repository,
    tag: r.tag,
    tagVersion: r.version,
    resolvedVersion: r.resolved_tag,
    digest: r.digest,
    platformDigest: r.platform_digest,
    declared: r.declared,
    since: r.from,
  }));
}
