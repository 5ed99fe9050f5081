import { genericPlanRows, Prisma, type DbTx } from "@/lib/db/client";
import { RESOLVED_TAG_JOIN } from "@/lib/db/queries/upstream/resolved-tag-join";
import type { ServiceFacts } from "@/lib/db/queries/services/list-service-facts";

export type GateEnvironmentRow = { id: string; name: string; position: number; gate: unknown };

/** A run as the gate reads it: `resolved` is the release its digest was resolved to, where it was. */
export type GateRunRow = {
  environmentId: string; container: string; isMain: boolean; repository: string; tag: string; version: string | null; resolved: string | null;
  digest: string | null; platformDigest: string | null; from: Date; to: Date | null;
};

/** A repository's upstream tags (null when never listed) and the releases digests of it were resolved to. */
export type GateUpstream = { tags: string[] | null; resolvedBy: Map<string, string> };

/**
 * `badgeSecret`: the workspace's badge key secret, when it was found by the key id
 * (the admission webhook checks its signed address with it); null otherwise.
 */
export type GateFacts = {
  workspace: { id: string; name: string; badgeSecret: string | null } | null;
  environments: GateEnvironmentRow[];
  /** As loadServiceFacts shapes them, `upstream` left null: the gate does not show check states. */
  services: ServiceFacts[];
  /**
   * The services' non-declared history rows, sidecars too, by service id: in the environment
   * asked about and the step before it (every environment when none was), and any other
   * row with one of the images' digests.
   */
  runs: Map<string, GateRunRow[]>;
  /** By repository key: the images' repositories and the services' own. */
  upstream: Map<string, GateUpstream>;
  /** By service id: the containers asked about (sidecars, init containers) that ran in any environment. */
  containersSeen: Map<string, Set<string>>;
};

export type GateFactsInput = {
  /** By id, or by a badge key id (the admission webhook's address). */
  workspace: { id: string } | { badgeKeyId: string };
  services: readonly string[];
  /** The repositories of the images asked about, with their digests where given. */
  images: readonly { key: string; digest: string | null }[];
  /** The environment asked about: history is read for it and the step before it only. */
  environment?: string;
  /** Containers other than the main one asked about: whether each ever ran, in any environment. */
  containers?: readonly string[];
};

type Row = {
  workspace: { id: string; name: string; secret: string | null } | null;
  environments: GateEnvironmentRow[] | null;
  services: (Omit<ServiceFacts, "upstream" | "createdAt"> & { createdAt: string })[] | null;
  /** Compact: [service, environment index (null: another's), container, isMain, repository, tag, version, resolved, digest, platformDigest, from ms, to ms]. */
  runs: [string, number | null, string, boolean, string, string, string | null, string | null, string | null, string | null, number, number | null][] | null;
  upstream: { key: string; tags: string[] | null }[] | null;
  resolved: { key: string; digest: string; tag: string }[] | null;
  containers: [string, string][] | null;
};

/**
 * Everything the gate reads to decide, in one statement: the gate answers admission reviews on
 * every deploy's path, where each round trip to PostgreSQL costs more than the rule itself.
 * The workspace, its environments in pipeline order (position, then name), the services named
 * with their history, and the upstream tags of their repositories and of the images' (the
 * workspace's own repository row first, else the shared one). Nothing when the workspace
 * (or the key id) is unknown. Planned once per connection (genericPlanRows): planning it took as
 * long as running it, for every review.
 */
export async function readGateFacts(db: DbTx, input: GateFactsInput): Promise<GateFacts> {
  const keys = input.images.map((i) => i.key);
  const digests = input.images.map((i) => i.digest ?? "");
  const wanted = input.images.flatMap((i) => (i.digest ? [i.digest] : []));
  const containers = [...new Set(input.containers ?? [])];
  const ws = "id" in input.workspace
    ? Prisma.sql`SELECT w.id, w.name, NULL::text AS secret FROM workspaces w WHERE w.id = ${input.workspace.id}::uuid`
    : Prisma.sql`SELECT w.id, w.name, k.secret FROM badge_keys k JOIN workspaces w ON w.id = k.workspace_id WHERE k.key_id = ${input.workspace.badgeKeyId}`;
  // The step before an environment, as stepBefore (lib/domain/gate) finds it: every environment at the nearest lower position.
  const readEnvs = input.environment === undefined
    ? Prisma.sql`TRUE`
    : Prisma.sql`(e.name = ${input.environment} OR e.position = (
        SELECT max(p.position) FROM environments p JOIN environments me ON me.workspace_id = p.workspace_id AND me.name = ${input.environment}
        WHERE p.workspace_id = e.workspace_id AND p.position < me.position))`;
  // Times as epoch milliseconds and environments by index: a review reads a few hundred rows, and
  // formatting timestamps and ids as text was most of the statement's cost.
  const run = (env: Prisma.Sql) => Prisma.sql`json_build_array(r.service_id, ${env}, r.container, r.is_main, r.repository, r.tag, r.version, res.tag, r.digest, r.platform_digest,
      (extract(epoch FROM r."from") * 1000)::int8, (extract(epoch FROM r."to") * 1000)::int8)`;
  const [row] = await genericPlanRows<Row>(db, Prisma.sql`
    WITH ws AS MATERIALIZED (${ws}),
    envs AS MATERIALIZED (
      SELECT e.id, e.name, e.position, e.gate, (row_number() OVER (ORDER BY e.position, e.name) - 1)::int AS i, ${readEnvs} AS judged
      FROM environments e WHERE e.workspace_id = (SELECT id FROM ws)),
    svc AS MATERIALIZED (
      SELECT s.id::text, s.name, s.team, s.application, s.repository, s.policy, s.created_at AS "createdAt",
             coalesce(
               (SELECT r.repository FROM runs r WHERE r.workspace_id = s.workspace_id AND r.service_id = s.id AND r.is_main AND r."to" IS NULL AND NOT r.declared ORDER BY r."from" DESC LIMIT 1),
               (SELECT r.repository FROM runs r WHERE r.workspace_id = s.workspace_id AND r.service_id = s.id AND r."to" IS NULL AND r.declared ORDER BY r."from" DESC LIMIT 1)
             ) AS "runningRepository"
      FROM services s JOIN ws ON s.workspace_id = ws.id
      WHERE s.name = ANY(${[...input.services]}::text[])),
    repo AS (
      SELECT DISTINCT ON (u.key) u.key, u.id
      FROM upstream_repositories u
      WHERE u.key IN (SELECT unnest(${keys}::text[]) UNION SELECT repository FROM svc UNION SELECT "runningRepository" FROM svc)
        AND (u.owner_workspace_id IS NULL OR u.owner_workspace_id = (SELECT id FROM ws))
      ORDER BY u.key, u.owner_workspace_id NULLS LAST),
    history AS (
      SELECT ${run(Prisma.sql`e.i`)} AS run
      FROM svc JOIN envs e ON e.judged
      JOIN runs r ON r.workspace_id = (SELECT id FROM ws) AND r.service_id = svc.id::uuid AND r.environment_id = e.id
      ${RESOLVED_TAG_JOIN}
      WHERE NOT r.declared
      UNION ALL
      SELECT ${run(Prisma.sql`NULL::int`)}
      FROM svc JOIN runs r ON r.workspace_id = (SELECT id FROM ws) AND r.service_id = svc.id::uuid
      ${RESOLVED_TAG_JOIN}
      WHERE cardinality(${wanted}::text[]) > 0 AND NOT r.declared AND (r.digest = ANY(${wanted}::text[]) OR r.platform_digest = ANY(${wanted}::text[]))
        AND r.environment_id NOT IN (SELECT id FROM envs WHERE judged))
    SELECT
      (SELECT json_build_object('id', ws.id, 'name', ws.name, 'secret', ws.secret) FROM ws) AS workspace,
      (SELECT json_agg(json_build_object('id', e.id, 'name', e.name, 'position', e.position, 'gate', e.gate) ORDER BY e.i) FROM envs e) AS environments,
      (SELECT json_agg(svc) FROM svc) AS services,
      (SELECT json_agg(run) FROM history) AS runs,
      (SELECT json_agg(json_build_object('key', repo.key, 'tags', (SELECT json_agg(t.name) FROM upstream_tags t WHERE t.repository_id = repo.id)))
       FROM repo) AS upstream,
      (SELECT json_agg(json_build_object('key', i.key, 'digest', i.digest, 'tag', d.tag))
       FROM unnest(${keys}::text[], ${digests}::text[]) AS i(key, digest)
       JOIN LATERAL (
         SELECT d.tag FROM upstream_repositories u JOIN digest_resolutions d ON d.repository_id = u.id
         WHERE u.key = i.key AND (u.owner_workspace_id IS NULL OR u.owner_workspace_id = (SELECT id FROM ws))
           AND d.tag IS NOT NULL AND d.digest = i.digest
         ORDER BY u.owner_workspace_id NULLS LAST LIMIT 1) d ON true
       WHERE i.digest <> '') AS resolved,
      (SELECT json_agg(json_build_array(c.id, c.container)) FROM (
         SELECT DISTINCT svc.id, r.container FROM svc JOIN runs r ON r.workspace_id = (SELECT id FROM ws) AND r.service_id = svc.id::uuid
         WHERE cardinality(${containers}::text[]) > 0 AND r.container = ANY(${containers}::text[]) AND NOT r.declared) c) AS containers`);

  const environments = row?.environments ?? [];
  const runs = new Map<string, GateRunRow[]>();
  const services = (row?.services ?? []).map((s) => {
    runs.set(s.id, []);
    return { ...s, createdAt: new Date(s.createdAt), upstream: null };
  });
  for (const [serviceId, env, container, isMain, repository, tag, version, resolved, digest, platformDigest, from, to] of row?.runs ?? []) {
    runs.get(serviceId)?.push({
      // Another environment's row (read for its digest): an id no environment has.
      environmentId: env === null ? "" : environments[env]!.id,
      container, isMain, repository, tag, version, resolved, digest, platformDigest, from: new Date(from), to: to === null ? null : new Date(to),
    });
  }
  const upstream = new Map<string, GateUpstream>((row?.upstream ?? []).map((u) => [u.key, { tags: u.tags, resolvedBy: new Map() }]));
  for (const r of row?.resolved ?? []) {
    let up = upstream.get(r.key);
    if (!up) upstream.set(r.key, (up = { tags: null, resolvedBy: new Map() }));
    up.resolvedBy.set(r.digest, r.tag);
  }
  const containersSeen = new Map<string, Set<string>>();
  for (const [serviceId, container] of row?.containers ?? []) {
    let seen = containersSeen.get(serviceId);
    if (!seen) containersSeen.set(serviceId, (seen = new Set()));
    seen.add(container);
  }
  const w = row?.workspace ?? null;
  return {
    workspace: w && { id: w.id, name: w.name, badgeSecret: w.secret },
    environments,
    services,
    runs,
    upstream,
    containersSeen,
  };
}
