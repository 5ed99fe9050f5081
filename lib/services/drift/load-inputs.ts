// The inputs of drift detection for one workspace, from the one read of what runs
// (listCurrentRuns): drift, the matrix, the updates list and acknowledgements see
// the same services, policies, upstream tags, end-of-life cycles and exact
// versions (exactVersionOf).
import type { Config } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { decodeCurrentRuns, listCurrentRuns, readCurrentRuns, type CurrentRuns, type RunImage, type ServiceRow, type UpstreamTags, type WorkspaceDocument } from "@/lib/db/queries/runs/list-current-runs";
import { listServiceRows } from "@/lib/db/queries/runs/list-service-rows";
import type { ServiceFacts } from "@/lib/db/queries/services/list-service-facts";
import { selectNewestOrNull, type CurrentRun, type EnvironmentInfo, type EolCycleInfo, type ServiceInput } from "@/lib/domain/drift";
import { findCycle } from "@/lib/domain/eol";
import { effectivePolicy, type EffectivePolicy, type Policy } from "@/lib/domain/policy";
import { exactVersionOf } from "@/lib/domain/running-version";
import { catalogFor } from "../services/catalog-lookup";
import { loadEolProductsOf } from "../eol/status";
import { lookupReleases, type ReleaseSource } from "../insights/releases";
import { releaseSourceOf } from "../upstream/sync-releases";

export { listClosedRuns as loadClosedHistory } from "@/lib/db/queries/runs/list-closed-runs";

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
  return buildInputs(db, config, now, await listCurrentRuns(db, workspaceId));
}

/** The open main rows of some services, with their exact versions (as drift and the matrix work them out). */
export async function loadCurrentRunsOf(db: Db, workspaceId: string, serviceIds: readonly string[]): Promise<CurrentRun[]> {
  const inputs = await buildInputs(db, { eolEnabled: false }, new Date(0), await listCurrentRuns(db, workspaceId, { serviceIds }));
  return inputs.current;
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
  const listed = quiet(listServiceRows(db, workspaceId).then((rows) => {
    // uuids sort as their lower-case text does, as PostgreSQL sorts them
    rows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const chunks: ServiceRow[][] = [];
    for (let i = 0; i < rows.length; i += chunkSize) chunks.push(rows.slice(i, i + chunkSize));
    return chunks;
  }));
  const read = (rows: ServiceRow[]) => quiet(readCurrentRuns(db, workspaceId, { services: false, range: [rows[0]![0], rows.at(-1)![0]] }));
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
      return buildInputs(db, config, now, decodeCurrentRuns(doc, rows));
    },
  };
}

/** The inputs of the services read (their rows were read with them, or for the whole workspace). */
async function buildInputs(db: Db, config: Pick<Config, "eolEnabled">, now: Date, read: CurrentRuns): Promise<DriftInputs> {
  const repositoryOf = (f: ServiceFacts) => f.repository ?? f.runningRepository;
  const { environments, runs, images, running, upstream } = read;
  const facts = decodeFacts(read.services, running, upstream);

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
  await addPublicationDates(db, services, facts, current);
  return { environments, services, facts, current, upstreamTags };
}

/**
 * Forge publication dates of the releases newer than what runs: an upstream
 * drift dates from them, and a minimum release age counts from them. Read from
 * the releases already stored, no request made.
 */
async function addPublicationDates(db: Db, services: ServiceInput[], facts: readonly ServiceFacts[], current: readonly CurrentRun[]): Promise<void> {
  const withUpstream = new Map(services.flatMap((s) => (s.upstream !== null ? [[s.id, s] as const] : [])));
  if (withUpstream.size === 0) return;
  const sources = new Map<string, ReleaseSource>();
  for (const f of facts) {
    const repository = f.repository ?? f.runningRepository;
    const service = withUpstream.get(f.id);
    if (service === undefined || repository === null) continue;
    const policy = policyOf(f);
    sources.set(f.id, {
      forge: releaseSourceOf(repository, policy, f.upstream?.sourceLabel ?? null),
      tagPrefix: policy?.release_tag_prefix ?? catalogFor(repository)?.release_tag_prefix ?? null,
      changelog: null,
    });
  }
  const wanted = new Map<string, { serviceId: string; version: string }>();
  const asked = new Set<string>(); // many targets run the same version: its newer releases once
  for (const run of current) {
    const service = withUpstream.get(run.serviceId);
    if (service === undefined || run.version === null || !sources.get(run.serviceId)?.forge) continue;
    const key = `${run.serviceId}\n${run.version}`;
    if (asked.has(key)) continue;
    asked.add(key);
    for (const version of selectNewestOrNull(service, run.version)?.releases ?? []) wanted.set(`${run.serviceId}\n${version}`, { serviceId: run.serviceId, version });
  }
  if (wanted.size === 0) return;
  const releases = await lookupReleases(db, sources, [...wanted.values()]);
  const published = new Map<string, Map<string, Date>>();
  for (const { serviceId, version } of wanted.values()) {
    const at = releases(serviceId, version).published_at;
    if (at === null) continue;
    let dates = published.get(serviceId);
    if (dates === undefined) published.set(serviceId, (dates = new Map()));
    dates.set(version, at);
  }
  for (const [serviceId, dates] of published) {
    const service = withUpstream.get(serviceId);
    if (service?.upstream) service.upstream = { ...service.upstream, published: dates };
  }
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
  const { productBy, products } = await loadEolProductsOf({ db }, withVersions);
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
