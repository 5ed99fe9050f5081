// The inputs of drift detection for one workspace: the services read model,
// and the current-runs and upstream-tags queries in a compact form (held to the
// read models' answers by tests), so that drift, the matrix and the updates
// list see the same services, policies, upstream tags, end-of-life cycles and
// exact versions (exactVersionOf).
import type { Config } from "@/lib/config";
import { Prisma, type Db } from "@/lib/db/client";
import type { ServiceFacts } from "@/lib/db/queries/services";
import type { CurrentRun, EnvironmentInfo, EolCycleInfo, HistoryRun, ServiceInput } from "@/lib/domain/drift";
import { findCycle } from "@/lib/domain/eol";
import { effectivePolicy, type EffectivePolicy, type Policy } from "@/lib/domain/policy";
import { exactVersionOf } from "@/lib/domain/running-version";
import { catalogFor } from "../services/catalog-lookup";
import { eolProductOf, indexPurls, loadEolProducts, loadPurls } from "../eol/status";
import { largeRead } from "@/lib/db/large-read";
import { RESOLVED_TAG_JOIN } from "@/lib/db/queries/resolved-tag";

export type DriftInputs = {
  environments: EnvironmentInfo[];
  services: ServiceInput[];
  facts: ServiceFacts[];
  /** Open main rows with their exact versions (exactVersionOf, as the matrix). */
  current: CurrentRun[];
  /** serviceId → the upstream tags its exact versions were judged against. */
  upstreamTags: Map<string, readonly string[] | null>;
};

/** Own policy, else the catalog's, else the default: the policy describeService shows. */
export function policyOf(facts: Pick<ServiceFacts, "policy" | "repository" | "runningRepository">): Policy | null {
  const own = (facts.policy ?? null) as Policy | null;
  if (own) return own;
  const repository = facts.repository ?? facts.runningRepository;
  return ((repository ? catalogFor(repository)?.policy : undefined) ?? null) as Policy | null;
}

export async function loadDriftInputs(db: Db, config: Pick<Config, "eolEnabled">, workspaceId: string, now: Date): Promise<DriftInputs> {
  const doc = await readWorkspace(db, workspaceId);
  return buildInputs(db, config, now, doc, JSON.parse(doc.services) as ServiceRow[], decodeUpstream(doc.upstream));
}

/** Services a chunk of the drift evaluation reads at a time (readDriftInputsByChunk). */
export const DRIFT_CHUNK_SERVICES = 1_000;
/**
 * Ranges read ahead of the one being worked out: PostgreSQL's share of a range
 * is larger than this process's, so two at once keep both of a small machine's cores busy.
 */
const READS_AHEAD = 2;

/** Hands out the inputs of one range of services at a time; null once every range was read. */
export type ChunkReader = { next: () => Promise<DriftInputs | null> };

/**
 * loadDriftInputs for a range of services at a time, in service id order (the
 * index of open rows by workspace and service reads just that range): the
 * evaluation's memory is then one chunk's rows, not the workspace's, whatever
 * the workspace's size, and PostgreSQL reads the next range while this process
 * works out the current one. The reads start at once. Each range is read in a
 * snapshot of its own: a service's rows are always read together, and a
 * service's drift depends on its own rows alone. A service created after the
 * list was read is left for the next evaluation.
 */
export function readDriftInputsByChunk(
  db: Db, config: Pick<Config, "eolEnabled">, workspaceId: string, now: Date, chunkSize = DRIFT_CHUNK_SERVICES,
): ChunkReader {
  const quiet = <T>(p: Promise<T>) => (p.catch(() => undefined), p); // awaited later; not an unhandled rejection meanwhile
  const listed = quiet(readServiceRows(db, workspaceId).then((rows) => {
    // uuids sort as their lower-case text does, as PostgreSQL sorts them
    rows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const chunks: ServiceRow[][] = [];
    for (let i = 0; i < rows.length; i += chunkSize) chunks.push(rows.slice(i, i + chunkSize));
    return chunks;
  }));
  const read = (rows: ServiceRow[]) => quiet(readWorkspace(db, workspaceId, { services: false, range: [rows[0]![0], rows.at(-1)![0]] }));
  const reads: Promise<WorkspaceDocument>[] = [];
  let asked = 0;
  let given = 0;
  const fill = (chunks: ServiceRow[][]) => {
    while (reads.length < READS_AHEAD && asked < chunks.length) reads.push(read(chunks[asked++]!));
  };
  listed.then(fill, () => undefined); // a failed list is thrown by next()
  return {
    next: async () => {
      const chunks = await listed;
      if (given >= chunks.length) return null;
      fill(chunks);
      const doc = await reads.shift()!;
      const rows = chunks[given++]!;
      fill(chunks);
      return buildInputs(db, config, now, doc, rows, decodeUpstream(doc.upstream));
    },
  };
}

/** The inputs of the services `serviceRows` from a document read for them (or for the whole workspace). */
async function buildInputs(
  db: Db, config: Pick<Config, "eolEnabled">, now: Date, doc: WorkspaceDocument, serviceRows: readonly ServiceRow[], upstream: Map<string, UpstreamTags>,
): Promise<DriftInputs> {
  const repositoryOf = (f: ServiceFacts) => f.repository ?? f.runningRepository;
  const environments = (JSON.parse(doc.environments) as [string, string, number, boolean][]).map(([id, name, position, production]) => ({ id, name, position, production }));
  const { runs, images, running } = decodeRuns(doc, environments);
  const facts = decodeFacts(serviceRows, running, upstream);

  const upstreamTags = new Map<string, readonly string[] | null>();
  const upstreamBy = new Map<string, UpstreamTags | undefined>();
  for (const f of facts) {
    const key = repositoryOf(f);
    const up = key ? upstream.get(key) : undefined;
    upstreamBy.set(f.id, up);
    upstreamTags.set(f.id, up?.tags ?? null);
  }

  // Rows of one service and image share their version (an image is decoded once per
  // service): exactVersionOf depends on the image's tag and versions and on the service's
  // upstream tags alone, worked out once per distinct tag list and image.
  const exact = new Map<readonly string[] | null, Map<string, string | null>>();
  const versionsBy = new Map<string, Set<string>>();
  let current = runs;
  for (let i = 0; i < runs.length; i++) {
    const run = runs[i] as CurrentRun;
    const image = images[i] as RunImage;
    let version = image.version;
    if (version === undefined) {
      const tags = upstreamTags.get(run.serviceId);
      if (tags === undefined) version = image.version = false; // a service not read: its rows are left out
      else {
        let byImage = exact.get(tags);
        if (byImage === undefined) exact.set(tags, (byImage = new Map()));
        version = byImage.get(image.key);
        if (version === undefined) byImage.set(image.key, (version = exactVersionOf(image, tags)));
        image.version = version;
        // The versions that run, for end-of-life cycles.
        if (version !== null && config.eolEnabled) {
          let set = versionsBy.get(run.serviceId);
          if (set === undefined) versionsBy.set(run.serviceId, (set = new Set()));
          set.add(version);
        }
      }
    }
    if (version === false) {
      if (current === runs) current = runs.slice(0, i);
      continue;
    }
    run.version = version;
    if (current !== runs) current.push(run);
  }

  const eol = config.eolEnabled ? await loadEolCycles(db, facts, versionsBy, now) : new Map<string, Map<string, EolCycleInfo | null>>();
  // Services with the same policy share one object, so detection can remember per policy;
  // without a policy of their own, services of one repository have the same (the catalog's).
  const policies = new Map<string, EffectivePolicy>();
  const byRepository = new Map<string | null, EffectivePolicy>();
  const services: ServiceInput[] = facts.map((f) => {
    const up = upstreamBy.get(f.id);
    let policy = f.policy === null || f.policy === undefined ? byRepository.get(repositoryOf(f)) : undefined;
    if (policy === undefined) {
      const own = policyOf(f);
      const policyKey = own === null ? "" : JSON.stringify(own);
      policy = policies.get(policyKey);
      if (policy === undefined) policies.set(policyKey, (policy = effectivePolicy(own)));
      if (f.policy === null || f.policy === undefined) byRepository.set(repositoryOf(f), policy);
    }
    return {
      id: f.id,
      name: f.name,
      team: f.team,
      application: f.application,
      policy,
      upstream: up && up.tags.length > 0 ? { tags: up.tags, firstSeen: up.firstSeen } : null,
      eol: eol.get(f.id) ?? new Map(),
    };
  });
  return { environments, services, facts, current, upstreamTags };
}

/** A row of loadCurrentRuns, as far as drift needs it. */
export type OpenRun = {
  serviceId: string; environmentId: string; targetId: string; targetName: string; tag: string;
  tagVersion: string | null; resolvedVersion: string | null; digest: string | null; declared: boolean; since: Date;
};

/**
 * loadCurrentRuns' rows (same rows, same digest resolution), narrowed to what
 * drift reads: readWorkspace's open rows. A test holds the two to the same answer.
 */
export async function loadOpenRuns(db: Db, workspaceId: string): Promise<OpenRun[]> {
  const doc = await readWorkspace(db, workspaceId);
  const environments = (JSON.parse(doc.environments) as [string][]).map(([id]) => ({ id }));
  const { runs, images } = decodeRuns(doc, environments);
  return runs.map(({ serviceId, environmentId, targetId, targetName, tag, digest, declared, since }, i) => ({
    serviceId, environmentId, targetId, targetName, tag, tagVersion: (images[i] as RunImage).tagVersion,
    resolvedVersion: (images[i] as RunImage).resolvedVersion, digest, declared, since,
  }));
}

type WorkspaceDocument = { runs: string; environments: string; targets: string; services: string; upstream: string };

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
 * read, by index; `services: false` leaves the service list out (readDriftInputsByChunk).
 */
async function readWorkspace(db: Db, workspaceId: string, opts: { services?: boolean; range?: [string, string] } = {}): Promise<WorkspaceDocument> {
  const services = opts.services === false ? Prisma.sql`'[]'` : Prisma.sql`(${servicesDocument(workspaceId)})`;
  const range = opts.range ? Prisma.sql`AND r.service_id BETWEEN ${opts.range[0]}::uuid AND ${opts.range[1]}::uuid` : Prisma.empty;
  const serviceRange = opts.range ? Prisma.sql`AND s.id BETWEEN ${opts.range[0]}::uuid AND ${opts.range[1]}::uuid` : Prisma.empty;
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

/** A service as readWorkspace sends it: id, name, team, application, repository, policy, created_at (ms). */
type ServiceRow = [string, string, string | null, string | null, string | null, unknown, number];

/** The workspace's services (loadServiceFacts' rows), in name order, as one JSON document. */
function servicesDocument(workspaceId: string): Prisma.Sql {
  return Prisma.sql`SELECT coalesce(json_agg(json_build_array(s.id, s.name, s.team, s.application, s.repository, s.policy, (extract(epoch from s.created_at) * 1000)::bigint) ORDER BY s.name), '[]')::text
    FROM services s WHERE s.workspace_id = ${workspaceId}::uuid`;
}

async function readServiceRows(db: Db, workspaceId: string): Promise<ServiceRow[]> {
  const [row] = await db.$queryRaw<{ j: string }[]>`SELECT (${servicesDocument(workspaceId)}) AS j`;
  return JSON.parse(row?.j ?? "[]") as ServiceRow[];
}

/**
 * What the open rows of one service and image share; `key` names the tag and versions,
 * `version` is the exact version once worked out (false: the service is not read).
 */
type RunImage = { tag: string; tagVersion: string | null; resolvedVersion: string | null; digest: string | null; key: string; version?: string | null | false };
/** The newest open row of a service (from, then id). */
type Newest = { from: number; id: number; repository: string };

/**
 * The open main rows, each service's together and in history order (run id), with their images (`version` is left
 * null: it is worked out from the images once the upstream tags are known), and per
 * service the repository its main containers run now (the newest open main row), else
 * the one its Compose files declare (the newest open declared row): loadServiceFacts'
 * runningRepository.
 */
function decodeRuns(doc: WorkspaceDocument, environments: readonly { id: string }[]): { runs: CurrentRun[]; images: RunImage[]; running: Map<string, string> } {
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

/** loadServiceFacts' answer, from the same rows. */
function decodeFacts(rows: readonly ServiceRow[], running: ReadonlyMap<string, string>, upstream: ReadonlyMap<string, UpstreamTags>): ServiceFacts[] {
  return rows.map(([id, name, team, application, repository, policy, createdAt]) => {
    const runningRepository = running.get(id) ?? null;
    const u = upstream.get(repository ?? runningRepository ?? "")?.check;
    return {
      id, name, team, application, repository, policy, createdAt: new Date(createdAt),
      runningRepository,
      upstream: u ? { checkedBy: u.checkedBy, checkedAt: u.checkedAt, lastError: u.lastError, sourceLabel: u.sourceLabel } : null,
    };
  });
}

type UpstreamCheck = { checkedBy: "server" | "agent"; checkedAt: Date | null; lastError: string | null; sourceLabel: string | null };
type UpstreamTags = { tags: string[]; firstSeen: Map<string, Date>; check: UpstreamCheck };

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

function decodeUpstream(json: string): Map<string, UpstreamTags> {
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

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})/;

/** The day a cycle's support ends; a cycle the source marks ended without a (past) date ends "now". */
function eolDateOf(cycle: { eolFrom: string | null; isEol: boolean }, now: Date): Date | null {
  const m = cycle.eolFrom ? DAY_RE.exec(cycle.eolFrom) : null;
  const day = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
  if (cycle.isEol) return day !== null && day <= now ? day : now;
  return day;
}

/** serviceId → exact running version → its end-of-life cycle, from cached product data. */
async function loadEolCycles(
  db: Db,
  facts: ServiceFacts[],
  versionsBy: Map<string, Set<string>>,
  now: Date,
): Promise<Map<string, Map<string, EolCycleInfo | null>>> {
  const out = new Map<string, Map<string, EolCycleInfo | null>>();
  const withVersions = facts.filter((f) => versionsBy.has(f.id));
  if (withVersions.length === 0) return out;
  const byImage = indexPurls(await loadPurls({ db }));
  const productBy = new Map<string, string>();
  for (const f of withVersions) {
    const product = eolProductOf(f, byImage);
    if (product) productBy.set(f.id, product);
  }
  if (productBy.size === 0) return out;
  const products = await loadEolProducts({ db }, [...productBy.values()]);
  for (const [serviceId, product] of productBy) {
    const releases = products.get(product);
    if (!releases) continue;
    const byVersion = new Map<string, EolCycleInfo | null>();
    for (const version of versionsBy.get(serviceId) ?? []) {
      const cycle = findCycle(version, releases);
      byVersion.set(version, cycle ? { product, cycle: cycle.name, eolDate: eolDateOf(cycle, now) } : null);
    }
    out.set(serviceId, byVersion);
  }
  return out;
}

/**
 * Closed main rows of the given (service, environment) pairs, with exact
 * versions worked out as for open rows. Only env drift that is about to be
 * opened needs them, so this is read for a few pairs, not the whole history;
 * a first evaluation over seeded history reads tens of thousands of rows a
 * range, so a row names its pair by place and its times in epoch milliseconds
 * rather than having PostgreSQL spell out timestamps and uuids for this process to parse.
 */
export async function loadClosedHistory(
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
