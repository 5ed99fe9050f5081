import type { Db } from "@/lib/db/client";
import { RESOLVED_TAG_JOIN } from "@/lib/db/queries/upstream/resolved-tag-join";
import type { HistoryRun } from "@/lib/domain/drift";
import { exactVersionOf } from "@/lib/domain/running-version";

/**
 * Closed main rows of the given (service, environment) pairs, with exact
 * versions worked out as for open rows. Only env drift that is about to be
 * opened needs them, so this is read for a few pairs, not the whole history;
 * a first evaluation over seeded history reads tens of thousands of rows a
 * range, so a row names its pair by place and its times in epoch milliseconds
 * rather than having PostgreSQL spell out timestamps and uuids for this process to parse.
 */
export async function listClosedRuns(
  db: Db,
  workspaceId: string,
  pairs: readonly { serviceId: string; environmentId: string }[],
  upstreamTags: ReadonlyMap<string, readonly string[] | null>,
): Promise<HistoryRun[]> {
  if (pairs.length === 0) return [];
  const services = pairs.map((p) => p.serviceId);
  const envs = pairs.map((p) => p.environmentId);
  const [row] = await db.$queryRaw<{ j: string }[]>`
    SELECT '[' || coalesce(string_agg(concat('[', p.i - 1, ',"', r.target_id, '",', to_json(t.name), ',', to_json(r.tag), ',',
             coalesce(to_json(r.version)::text, 'null'), ',', coalesce(to_json(res.tag)::text, 'null'), ',', coalesce(to_json(r.digest)::text, 'null'), ',',
             r.declared::int, ',', round(date_part('epoch', r."from") * 1000)::bigint, ',', round(date_part('epoch', r."to") * 1000)::bigint, ']'), ','), '') || ']' AS j
    FROM runs r
    JOIN unnest(${services}::uuid[], ${envs}::uuid[]) WITH ORDINALITY AS p(service_id, environment_id, i)
      ON p.service_id = r.service_id AND p.environment_id = r.environment_id
    JOIN targets t ON t.id = r.target_id
    ${RESOLVED_TAG_JOIN}
    WHERE r.workspace_id = ${workspaceId}::uuid AND r."to" IS NOT NULL AND r.is_main`;
  // [pair, target id, target name, tag, tag version, resolved tag, digest, declared, from (ms), to (ms)]
  type Cells = [number, string, string, string, string | null, string | null, string | null, number, number, number];
  return (JSON.parse(row?.j ?? "[]") as Cells[]).map((c) => {
    const pair = pairs[c[0]] as { serviceId: string; environmentId: string };
    return {
      serviceId: pair.serviceId,
      environmentId: pair.environmentId,
      targetId: c[1],
      targetName: c[2],
      tag: c[3],
      version: exactVersionOf({ tag: c[3], tagVersion: c[4], resolvedVersion: c[5] }, upstreamTags.get(pair.serviceId) ?? null),
      digest: c[6],
      since: new Date(c[8]),
      declared: c[7] === 1,
      to: new Date(c[9]),
    };
  });
}
