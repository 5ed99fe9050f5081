// The inputs of drift detection for one workspace: the services read model,
// and the current-runs and upstream-tags queries in a compact form (held to the
// read models' answers by tests), so that drift, the matrix and the updates
// list see the same services, policies, upstream tags, end-of-life cycles and
// exact versions (exactVersionOf).
import type { Config } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { loadServiceFacts, type ServiceFacts } from "@/lib/db/queries/services";
import type { CurrentRun, EnvironmentInfo, EolCycleInfo, HistoryRun, ServiceInput } from "@/lib/domain/drift";
import { findCycle, normaliseRepositoryKey, repositoryKeysForPurl, resolveEolProduct, type PurlIdentifier } from "@/lib/domain/eol";
import { effectivePolicy, type EffectivePolicy, type Policy } from "@/lib/domain/policy";
import { exactVersionOf } from "@/lib/domain/running-version";
import { catalogFor } from "../catalog-lookup";
import { loadEolProducts, loadPurls } from "../eol-status";
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
  const repositoryOf = (f: ServiceFacts) => f.repository ?? f.runningRepository;
  const factsRead = loadServiceFacts(db, workspaceId);
  // Upstream tags need only the services' repositories: read them beside the open runs, not after.
  const upstreamRead = factsRead.then((facts) => loadUpstreamTags(db, workspaceId, [...new Set(facts.map(repositoryOf).filter((k): k is string => !!k))]));
  const [environments, facts, rows, upstream] = await Promise.all([
    db.environment.findMany({
      where: { workspaceId },
      orderBy: [{ position: "asc" }, { name: "asc" }],
      select: { id: true, name: true, position: true, production: true },
    }),
    factsRead,
    loadOpenRuns(db, workspaceId),
    upstreamRead,
  ]);

  const upstreamTags = new Map<string, readonly string[] | null>();
  const upstreamBy = new Map<string, UpstreamTags | undefined>();
  for (const f of facts) {
    const key = repositoryOf(f);
    const up = key ? upstream.get(key) : undefined;
    upstreamBy.set(f.id, up);
    upstreamTags.set(f.id, up?.tags ?? null);
  }

  const current: CurrentRun[] = [];
  const versionsBy = new Map<string, Set<string>>();
  // exactVersionOf depends on the row's tag and versions and on the service's upstream tags alone,
  // and thousands of rows share them: worked out once per distinct input.
  const exact = new Map<readonly string[] | null, Map<string, string | null>>();
  for (const r of rows) {
    const tags = upstreamTags.get(r.serviceId);
    if (tags === undefined) continue;
    let byRun = exact.get(tags);
    if (byRun === undefined) exact.set(tags, (byRun = new Map()));
    const key = `${r.tag}\u0000${r.tagVersion ?? "\u0001"}\u0000${r.resolvedVersion ?? "\u0001"}`;
    let version = byRun.get(key);
    if (version === undefined) byRun.set(key, (version = exactVersionOf(r, tags)));
    current.push({
      serviceId: r.serviceId, environmentId: r.environmentId, targetId: r.targetId, targetName: r.targetName,
      tag: r.tag, version, digest: r.digest, since: r.since, declared: r.declared,
    });
    if (version !== null) {
      let set = versionsBy.get(r.serviceId);
      if (set === undefined) versionsBy.set(r.serviceId, (set = new Set()));
      set.add(version);
    }
  }

  const eol = config.eolEnabled ? await loadEolCycles(db, facts, versionsBy, now) : new Map<string, Map<string, EolCycleInfo | null>>();
  // Services with the same policy share one object, so detection can remember per policy.
  const policies = new Map<string, EffectivePolicy>();
  const services: ServiceInput[] = facts.map((f) => {
    const up = upstreamBy.get(f.id);
    const own = policyOf(f);
    const policyKey = own === null ? "" : JSON.stringify(own);
    let policy = policies.get(policyKey);
    if (policy === undefined) policies.set(policyKey, (policy = effectivePolicy(own)));
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
 * drift reads and sent as one JSON document: decoding tens of thousands of rows
 * one by one cost several times the query. Rows are grouped by image (repository,
 * digest, tag): the digest is resolved once per group rather than once per row,
 * and the group's fields are sent once. A test holds the two to the same answer.
 * Rows come in history order (run id), whatever the plan.
 */
export async function loadOpenRuns(db: Db, workspaceId: string): Promise<OpenRun[]> {
  // Hand-built JSON: json_build_array per row cost twice the query. Only uuids, booleans
  // and numbers are spliced in as they are; text goes through to_json.
  const [row] = await db.$queryRaw<{ j: string; targets: string }[]>`
    SELECT '[' || coalesce(string_agg('[' || coalesce(to_json(res.tag)::text, 'null') || ',' || coalesce(to_json(r.digest)::text, 'null') || ','
             || to_json(r.tag)::text || ',' || coalesce(to_json(r.version)::text, 'null') || ',[' || r.runs || ']]', ','), '') || ']' AS j,
           (SELECT coalesce(json_object_agg(t.id, t.name), '{}')::text FROM targets t WHERE t.workspace_id = ${workspaceId}::uuid) AS targets
    FROM (
      SELECT r.workspace_id, r.repository, r.digest, r.platform_digest, r.tag, r.version,
             string_agg(r.id::text || ',"' || r.service_id::text || '","' || r.environment_id::text || '","' || r.target_id::text || '",'
               || r.declared::text || ',' || (extract(epoch from r."from") * 1000)::bigint::text, ',') AS runs
      FROM runs r
      WHERE r.workspace_id = ${workspaceId}::uuid AND r."to" IS NULL AND r.is_main
      GROUP BY r.workspace_id, r.repository, r.digest, r.platform_digest, r.tag, r.version
    ) r
    ${RESOLVED_TAG_JOIN}`;
  type Group = [string | null, string | null, string, string | null, (string | number | boolean)[]];
  const targets = JSON.parse(row?.targets ?? "{}") as Record<string, string>;
  const out: (OpenRun & { id: number })[] = [];
  for (const [resolvedVersion, digest, tag, tagVersion, cells] of JSON.parse(row?.j ?? "[]") as Group[]) {
    for (let i = 0; i < cells.length; i += 6) {
      const targetId = cells[i + 3] as string;
      out.push({
        id: cells[i] as number, serviceId: cells[i + 1] as string, environmentId: cells[i + 2] as string, targetId, targetName: targets[targetId] as string,
        tag, tagVersion, resolvedVersion, digest, declared: cells[i + 4] as boolean, since: new Date(cells[i + 5] as number),
      });
    }
  }
  return out.sort((a, b) => a.id - b.id);
}

type UpstreamTags = { tags: string[]; firstSeen: Map<string, Date> };

/** loadUpstream's tags (the workspace's own repository wins over the shared one), as one JSON object per repository. */
export async function loadUpstreamTags(db: Db, workspaceId: string, keys: string[]): Promise<Map<string, UpstreamTags>> {
  if (keys.length === 0) return new Map();
  const rows = await db.$queryRaw<{ key: string; j: string }[]>`
    WITH chosen AS (
      SELECT DISTINCT ON (u.key) u.key, u.id FROM upstream_repositories u
      WHERE u.key = ANY(${keys}::text[]) AND (u.owner_workspace_id IS NULL OR u.owner_workspace_id = ${workspaceId}::uuid)
      ORDER BY u.key, u.owner_workspace_id NULLS LAST)
    SELECT c.key, coalesce((SELECT json_object_agg(t.name, t.first_seen_at) FROM upstream_tags t WHERE t.repository_id = c.id), '{}')::text AS j
    FROM chosen c`;
  const out = new Map<string, UpstreamTags>();
  // Repositories released in step (one version across many images) list the same tags:
  // they share one array, so what detection works out per tag list is worked out once.
  const same = new Map<string, string[]>();
  for (const r of rows) {
    const entries = Object.entries(JSON.parse(r.j) as Record<string, string>);
    const names = entries.map(([name]) => name);
    const content = JSON.stringify(names);
    let tags = same.get(content);
    if (tags === undefined) same.set(content, (tags = names));
    out.set(r.key, { tags, firstSeen: new Map(entries.map(([name, at]) => [name, new Date(at)] as const)) });
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
  const purls = await loadPurls({ db });
  const productBy = new Map<string, string>();
  // Matching every service against every package URL costs seconds in a large workspace.
  const byImage = indexPurls(purls);
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

/** Repository key → the first product whose package URLs name it: productForImage's answer, looked up in O(1). */
export function indexPurls(purls: readonly PurlIdentifier[]): Map<string, string> {
  const byImage = new Map<string, string>();
  for (const entry of purls) {
    for (const key of repositoryKeysForPurl(entry.identifier)) if (!byImage.has(key)) byImage.set(key, entry.product.name);
  }
  return byImage;
}

/** eolProductFor (policy `eol`, catalog, package URLs) with the package URLs indexed. */
export function eolProductOf(facts: Pick<ServiceFacts, "policy" | "repository" | "runningRepository">, byImage: ReadonlyMap<string, string>): string | null {
  const repository = facts.repository ?? facts.runningRepository;
  const key = repository ? normaliseRepositoryKey(repository) : null;
  return resolveEolProduct({
    policyEol: ((facts.policy ?? null) as Policy | null)?.eol,
    catalogEol: repository ? catalogFor(repository)?.eol : undefined,
    purlMatch: repository ? (key === null ? null : (byImage.get(key) ?? null)) : undefined,
  });
}

/**
 * Closed main rows of the given (service, environment) pairs, with exact
 * versions worked out as for open rows. Only env drift that is about to be
 * opened needs them, so this is read for a few pairs, not the whole history.
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
    SELECT coalesce(json_agg(json_build_array(r.service_id, r.environment_id, r.target_id, t.name, r.tag, r.version, res.tag, r.digest, r.declared, r."from", r."to")), '[]')::text AS j
    FROM runs r
    JOIN (SELECT * FROM unnest(${services}::uuid[], ${envs}::uuid[]) AS p(service_id, environment_id)) p
      ON p.service_id = r.service_id AND p.environment_id = r.environment_id
    JOIN targets t ON t.id = r.target_id
    ${RESOLVED_TAG_JOIN}
    WHERE r.workspace_id = ${workspaceId}::uuid AND r."to" IS NOT NULL AND r.is_main`;
  type Cells = [string, string, string, string, string, string | null, string | null, string | null, boolean, string, string];
  return (JSON.parse(row?.j ?? "[]") as Cells[]).map((c) => ({
    serviceId: c[0],
    environmentId: c[1],
    targetId: c[2],
    targetName: c[3],
    tag: c[4],
    version: exactVersionOf({ tag: c[4], tagVersion: c[5], resolvedVersion: c[6] }, upstreamTags.get(c[0]) ?? null),
    digest: c[7],
    since: new Date(c[9]),
    declared: c[8],
    to: new Date(c[10]),
  }));
}
