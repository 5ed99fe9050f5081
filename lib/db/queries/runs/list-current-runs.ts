// What runs (or is declared) now in a workspace: its open history rows with their exact-version inputs
// (tag, tag version, the version a moving tag's digest resolved to), environments, targets, services and
// the upstream tags they are judged against, read in one statement as JSON documents and decoded here.
// The one read model drift, the matrix, insights and acknowledgements share.
import { Prisma, type Db } from "@/lib/db/client";
import { largeRead } from "@/lib/db/large-read";
import { RESOLVED_TAG_JOIN } from "@/lib/db/queries/upstream/resolved-tag-join";
import type { CurrentRun, EnvironmentInfo } from "@/lib/domain/drift";

/** Which open rows to read: a range of service ids (inclusive), or some services; `services: false` leaves the service list out. */
export type CurrentRunsScope = { services?: boolean; range?: [string, string]; serviceIds?: readonly string[] };

/** A read decoded: the open main rows (`version` null until exactVersionOf is worked out from `images`), and the rest of the document. */
export type CurrentRuns = {
  environments: EnvironmentInfo[];
  runs: CurrentRun[];
  images: RunImage[];
  /** serviceId → the repository it runs now (else declares): loadServiceFacts' runningRepository. */
  running: Map<string, string>;
  services: ServiceRow[];
  upstream: Map<string, UpstreamTags>;
};

/** readCurrentRuns and decodeCurrentRuns at once. */
export async function listCurrentRuns(db: Db, workspaceId: string, scope: CurrentRunsScope = {}): Promise<CurrentRuns> {
  return decodeCurrentRuns(await readCurrentRuns(db, workspaceId, scope));
}

/** A document readCurrentRuns read, decoded; `services`: the service rows when the document left them out. */
export function decodeCurrentRuns(doc: WorkspaceDocument, services?: ServiceRow[]): CurrentRuns {
  const environments = (JSON.parse(doc.environments) as [string, string, number, boolean][]).map(([id, name, position, production]) => ({ id, name, position, production }));
  const { runs, images, running } = decodeRuns(doc, environments);
  return { environments, runs, images, running, services: services ?? (JSON.parse(doc.services) as ServiceRow[]), upstream: decodeUpstream(doc.upstream) };
}

export type WorkspaceDocument = { runs: string; environments: string; targets: string; services: string; upstream: string };

/**
 * What drift reads of a workspace, in one statement (one snapshot) and a few JSON
 * documents (decoding tens of thousands of rows one by one cost several times the query):
 * - environments in pipeline order, and targets;
 * - the services (loadServiceFacts' rows, in name order);
 * - the open rows: main ones (what runs), and declared ones (whose repository a
 *   service with nothing else running is judged against). They are grouped by service
 *   and image (repository, digest, tag): the digest is resolved once per group rather
 *   than once per row (loadCurrentRuns' join), and the group's fields are sent once.
 *   A row names its environment and target by their place in the lists sent beside it
 *   (a run's environment and target are its workspace's). The target's place is looked up
 *   in a JSON object, not joined: until statistics see a new workspace's rows the planner
 *   expects one and compares every row with every target.
 * - the upstream tags of every repository the services read may be judged against
 *   (upstreamDocument): their own, and what their open rows run or declare. Taken from the
 *   groups just read, a range's repositories cost no second pass over the open rows,
 *   and the first range need not wait for a sort of the whole workspace.
 * The JSON is built by hand where json_build_array per row cost more than the scan:
 * only uuids, booleans and numbers are spliced in as they are, text goes through to_json.
 * Times are epoch milliseconds (date_part: a double, exact for millisecond timestamps).
 * With `range`, only the open rows of the services whose ids fall in it (inclusive) are
 * read, by index (likewise with `serviceIds`, which also narrows the service list);
 * `services: false` leaves the service list out (readDriftInputsByChunk).
 */
export async function readCurrentRuns(db: Db, workspaceId: string, opts: CurrentRunsScope = {}): Promise<WorkspaceDocument> {
  const serviceRange = opts.range ? Prisma.sql`AND s.id BETWEEN ${opts.range[0]}::uuid AND ${opts.range[1]}::uuid`
    : opts.serviceIds ? Prisma.sql`AND s.id = ANY(${opts.serviceIds}::uuid[])` : Prisma.empty;
  const services = opts.services === false ? Prisma.sql`'[]'` : Prisma.sql`(${servicesDocument(workspaceId, opts.serviceIds ? serviceRange : Prisma.empty)})`;
  const range = opts.range ? Prisma.sql`AND r.service_id BETWEEN ${opts.range[0]}::uuid AND ${opts.range[1]}::uuid`
    : opts.serviceIds ? Prisma.sql`AND r.service_id = ANY(${opts.serviceIds}::uuid[])` : Prisma.empty;
  const [row] = await largeRead<WorkspaceDocument>(db, Prisma.sql`
    WITH e AS (SELECT id, name, position, production, row_number() OVER (ORDER BY position, name) - 1 AS n FROM environments WHERE workspace_id = ${workspaceId}::uuid),
         t AS (SELECT id, name, row_number() OVER (ORDER BY id) - 1 AS n FROM targets WHERE workspace_id = ${workspaceId}::uuid),
         tn AS (SELECT jsonb_object_agg(id::text, n) AS place FROM t),
         g AS MATERIALIZED (
           SELECT r.service_id, r.workspace_id, r.repository, r.digest, r.platform_digest, r.tag, r.version, r.is_main,
                  string_agg(concat_ws(',', r.id, e.n, (SELECT place FROM tn) ->> r.target_id::text, r.declared::int, round(date_part('epoch', r."from") * 1000)::bigint), ',') AS runs
           FROM runs r
           JOIN e ON e.id = r.environment_id
           WHERE r.workspace_id = ${workspaceId}::uuid AND r."to" IS NULL AND (r.is_main OR r.declared) ${range}
           GROUP BY r.service_id, r.workspace_id, r.repository, r.digest, r.platform_digest, r.tag, r.version, r.is_main)
    SELECT '[' || coalesce(string_agg('["' || r.service_id::text || '",' || coalesce(to_json(res.tag)::text, 'null') || ',' || coalesce(to_json(r.digest)::text, 'null') || ','
             || to_json(r.tag)::text || ',' || coalesce(to_json(r.version)::text, 'null') || ',' || to_json(r.repository)::text || ',' || r.is_main::int::text
             || ',[' || r.runs || ']]', ','), '') || ']' AS runs,
           (SELECT coalesce(json_agg(json_build_array(e.id, e.name, e.position, e.production) ORDER BY e.n), '[]')::text FROM e) AS environments,
           (SELECT coalesce(json_agg(json_build_array(t.id, t.name) ORDER BY t.n), '[]')::text FROM t) AS targets,
           ${services} AS services,
           (${upstreamDocument(workspaceId, Prisma.sql`SELECT g.repository FROM g
              UNION SELECT s.repository FROM services s WHERE s.workspace_id = ${workspaceId}::uuid AND s.repository IS NOT NULL ${serviceRange}`)}) AS upstream
    FROM g r
    ${RESOLVED_TAG_JOIN}`);
  return row ?? { runs: "[]", environments: "[]", targets: "[]", services: "[]", upstream: "[]" };
}

/** A service as readCurrentRuns sends it: id, name, team, application, repository, policy, created_at (ms). */
export type ServiceRow = [string, string, string | null, string | null, string | null, unknown, number];

/** The workspace's services (loadServiceFacts' rows), in name order, as one JSON document. */
export function servicesDocument(workspaceId: string, filter: Prisma.Sql = Prisma.empty): Prisma.Sql {
  return Prisma.sql`SELECT coalesce(json_agg(json_build_array(s.id, s.name, s.team, s.application, s.repository, s.policy, (extract(epoch from s.created_at) * 1000)::bigint) ORDER BY s.name), '[]')::text
    FROM services s WHERE s.workspace_id = ${workspaceId}::uuid ${filter}`;
}

/**
 * What the open rows of one service and image share; `key` names the tag and versions,
 * `version` is the exact version once worked out (false: the service is not read).
 */
export type RunImage = { tag: string; tagVersion: string | null; resolvedVersion: string | null; digest: string | null; key: string; version?: string | null | false };
/** The newest open row of a service (from, then id). */
type Newest = { from: number; id: number; repository: string };

/**
 * The open main rows, each service's together and in history order (run id), with their images (`version` is left
 * null: it is worked out from the images once the upstream tags are known), and per
 * service the repository its main containers run now (the newest open main row), else
 * the one its Compose files declare (the newest open declared row): loadServiceFacts'
 * runningRepository.
 */
export function decodeRuns(doc: WorkspaceDocument, environments: readonly { id: string }[]): { runs: CurrentRun[]; images: RunImage[]; running: Map<string, string> } {
  // [service, resolved tag, digest, tag, tag version, repository, main, [run id, environment, target, declared, from (ms), …]]
  type Group = [string, string | null, string | null, string, string | null, string, number, number[]];
  const groups = JSON.parse(doc.runs) as Group[];
  const targets = (JSON.parse(doc.targets) as [string, string][]).map(([id, name]) => ({ id, name }));

  // First pass: the newest rows per service, and how many main rows there are.
  const runningBy = new Map<string, Newest>();
  const declaredBy = new Map<string, Newest>();
  const note = (by: Map<string, Newest>, serviceId: string, from: number, id: number, repository: string) => {
    const best = by.get(serviceId);
    if (best === undefined || from > best.from || (from === best.from && id > best.id)) by.set(serviceId, { from, id, repository });
  };
  let count = 0;
  for (const [serviceId, , , , , repository, main, cells] of groups) {
    let runningFrom = Number.NEGATIVE_INFINITY, runningId = Number.NEGATIVE_INFINITY;
    let declaredFrom = Number.NEGATIVE_INFINITY, declaredId = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < cells.length; i += 5) {
      const id = cells[i] as number;
      const from = cells[i + 4] as number;
      if (cells[i + 3] === 1) {
        if (from > declaredFrom || (from === declaredFrom && id > declaredId)) {
          declaredFrom = from;
          declaredId = id;
        }
      } else if (main === 1 && (from > runningFrom || (from === runningFrom && id > runningId))) {
        runningFrom = from;
        runningId = id;
      }
      if (main === 1) count++;
    }
    if (declaredId !== Number.NEGATIVE_INFINITY) note(declaredBy, serviceId, declaredFrom, declaredId, repository);
    if (runningId !== Number.NEGATIVE_INFINITY) note(runningBy, serviceId, runningFrom, runningId, repository);
  }
  const running = new Map<string, string>();
  for (const [serviceId, newest] of declaredBy) running.set(serviceId, newest.repository);
  for (const [serviceId, newest] of runningBy) running.set(serviceId, newest.repository);

  // Each service's rows together, in history order (run id) within the service: detection
  // walks a service at a time, and rows it reads together sit together in memory, so the
  // cost a row stays the same as the workspace grows.
  type Placed = { id: number; run: CurrentRun; image: RunImage };
  const byService = new Map<string, Placed[]>();
  for (const [serviceId, resolvedVersion, digest, tag, tagVersion, , main, cells] of groups) {
    if (main !== 1) continue;
    const image: RunImage = { tag, tagVersion, resolvedVersion, digest, key: `${tag}\u0000${tagVersion ?? "\u0001"}\u0000${resolvedVersion ?? "\u0001"}`, version: undefined };
    let placed = byService.get(serviceId);
    if (placed === undefined) byService.set(serviceId, (placed = []));
    for (let i = 0; i < cells.length; i += 5) {
      const environment = environments[cells[i + 1] as number] as { id: string };
      const target = targets[cells[i + 2] as number] as { id: string; name: string };
      placed.push({
        id: cells[i] as number,
        run: { serviceId, environmentId: environment.id, targetId: target.id, targetName: target.name, tag, version: null, digest, since: new Date(cells[i + 4] as number), declared: cells[i + 3] === 1 },
        image,
      });
    }
  }
  const runs = new Array<CurrentRun>(count);
  const images = new Array<RunImage>(count);
  let k = 0;
  for (const placed of byService.values()) {
    placed.sort((a, b) => a.id - b.id);
    for (const { run, image } of placed) {
      runs[k] = run;
      images[k++] = image;
    }
  }
  return { runs, images, running };
}

export type UpstreamCheck = { checkedBy: "server" | "agent"; checkedAt: Date | null; lastError: string | null; sourceLabel: string | null };
export type UpstreamTags = { tags: string[]; firstSeen: Map<string, Date>; check: UpstreamCheck };

/**
 * The upstream tags and check state of the repositories `wanted` selects, as one JSON
 * array of [key, tag names, when each was first seen (ms), checked by, checked at (ms),
 * last error, source label]. Arrays, not objects keyed by tag: a tag list decodes
 * without building an object of its own per repository.
 */
function upstreamDocument(workspaceId: string, wanted: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    WITH chosen AS (
      SELECT DISTINCT ON (u.key) u.key, u.id, u.checked_by, u.checked_at, u.last_error, u.source_label FROM upstream_repositories u
      WHERE u.key IN (${wanted}) AND (u.owner_workspace_id IS NULL OR u.owner_workspace_id = ${workspaceId}::uuid)
      ORDER BY u.key, u.owner_workspace_id NULLS LAST)
    SELECT coalesce(json_agg(json_build_array(c.key, tags.names, tags.seen,
             c.checked_by, (extract(epoch from c.checked_at) * 1000)::bigint, c.last_error, c.source_label)), '[]')::text
    FROM chosen c
    CROSS JOIN LATERAL (
      SELECT coalesce(json_agg(t.name ORDER BY t.name), '[]') AS names,
             coalesce(json_agg(round(date_part('epoch', t.first_seen_at) * 1000)::bigint ORDER BY t.name), '[]') AS seen
      FROM upstream_tags t WHERE t.repository_id = c.id) tags`;
}

export function decodeUpstream(json: string): Map<string, UpstreamTags> {
  const out = new Map<string, UpstreamTags>();
  // Repositories released in step (one version across many images) list the same tags:
  // they share one array, so what detection works out per tag list is worked out once.
  const same = new Map<string, string[]>();
  type Entry = [string, string[], number[], UpstreamCheck["checkedBy"], number | null, string | null, string | null];
  for (const [key, names, seen, checkedBy, checkedAt, lastError, sourceLabel] of JSON.parse(json) as Entry[]) {
    const content = names.join("\u0000");
    let tags = same.get(content);
    if (tags === undefined) same.set(content, (tags = names));
    // A Date per tag: sharing one per instant through a map keyed by the milliseconds costs
    // more than it saves (numbers that large are hashed as heap numbers).
    const firstSeen = new Map<string, Date>();
    for (let i = 0; i < names.length; i++) firstSeen.set(names[i] as string, new Date(seen[i] as number));
    out.set(key, { tags, firstSeen, check: { checkedBy, checkedAt: checkedAt === null ? null : new Date(checkedAt), lastError, sourceLabel } });
  }
  return out;
}
