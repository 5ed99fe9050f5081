// Everything the service page shows, read through the same services as the
// API: the service and its policy, the matrix row (what runs where), the
// releases between what runs and the newest, thirty days of history, open
// drift, acknowledgements and the badge states.
import { getServiceId } from "@/lib/db/queries/services/get-service-id";
import { loadUpstream } from "@/lib/db/queries/upstream/list-upstream-facts";
import { AppError } from "@/lib/domain/errors";
import { effectivePolicy, type Policy } from "@/lib/domain/policy";
import { compareTags, selectNewest } from "@/lib/domain/versions";
import { listAcks } from "../acks/list";
import { badgeViews, type BadgeView } from "../badges/views";
import { catalogFor } from "./catalog-lookup";
import { workspaceOf, type RequestCtx } from "../context";
import type { ServiceOut } from "./describe";
import { listDrifts } from "../drift/list-drifts";
import { getMatrix } from "../matrix/get";
import { listHistory } from "../history/list";
import { lookupReleases, type ReleaseSource } from "../insights/releases";
import { getServiceOrThrow } from "./get";

type Matrix = Awaited<ReturnType<typeof getMatrix>>;

export type ReleaseLine = {
  version: string;
  /** From the forge release; null when none is known. */
  published_at: string | null;
  /** When Driftwatch first saw the tag upstream. */
  first_seen: string | null;
  release_notes_url: string | null;
  running_in: string[];
};
export type HistoryRow = Awaited<ReturnType<typeof listHistory>>["items"][number];

export type ServiceDetail = {
  service: ServiceOut;
  environments: Matrix["environments"];
  row: Matrix["services"][number] | null;
  upstream: { newest: string | null; newest_notes_url: string | null; last_error: string | null; tags: number };
  /** The oldest version running anywhere, which the releases list starts after. */
  oldest_running: string | null;
  /** Releases after the oldest running version up to the newest, newest first, with where each runs. */
  releases: ReleaseLine[];
  history: HistoryRow[];
  drifts: Awaited<ReturnType<typeof listDrifts>>["items"];
  acks: Awaited<ReturnType<typeof listAcks>>["items"];
  badges: BadgeView[];
};

export const HISTORY_DAYS = 30;
const MAX_RELEASES = 50;

function releaseSourceOf(service: ServiceOut): ReleaseSource {
  const own = service.policy_source === "service" ? (service.policy as Policy) : null;
  const catalog = service.repository ? catalogFor(service.repository) : null;
  const { kind, repository } = service.release_source;
  return {
    forge: kind && repository ? { kind, repository } : null,
    tagPrefix: own?.release_tag_prefix ?? catalog?.release_tag_prefix ?? null,
    changelog: own?.changelog ?? catalog?.changelog ?? null,
  };
}

export async function getServiceDetail({ ctx, input: { name } }: { ctx: RequestCtx; input: { name: string } }): Promise<ServiceDetail> {
  const workspaceId = workspaceOf(ctx.actor);
  const service = await getServiceOrThrow({ ctx, input: { name } });
  const since = new Date(ctx.now.getTime() - HISTORY_DAYS * 86_400_000).toISOString();
  const [matrix, history, drifts, acks, serviceId] = await Promise.all([
    getMatrix({ ctx, input: { q: name } }),
    listHistory({ ctx, input: { service: name, since } }),
    listDrifts({ ctx, input: { service: name } }),
    listAcks({ ctx, input: { service: name, active: true } }),
    getServiceId(ctx.db, workspaceId, name),
  ]);
  if (!serviceId) throw new AppError("not_found", `Service ${name} was not found.`);
  const row = matrix.services.find((s) => s.name === name) ?? null;

  const upstream = service.repository ? (await loadUpstream(ctx.db, workspaceId, [service.repository])).get(service.repository) : undefined;
  const runningVersions = (row?.cells ?? []).flatMap((c) => c.targets.filter((t) => !t.declared || c.declared).map((t) => ({ env: c.environment, version: t.version })));
  const known = runningVersions.map((r) => r.version).filter((v): v is string => v !== null);
  const oldest = [...known].sort((a, b) => compareTags(a, b) ?? 0)[0] ?? null;

  let versions: string[] = [];
  if (upstream && oldest) {
    const policy = effectivePolicy(service.policy as Policy);
    versions = selectNewest({ running: oldest, tags: upstream.tags, policy: { tag_filter: policy.tag_filter, prerelease: policy.prerelease } }).releases;
  }
  const newest = row?.upstream.newest ?? null;
  const wanted = [...versions.slice(-MAX_RELEASES), ...(newest ? [newest] : [])].map((version) => ({ serviceId: serviceId, version }));
  const notes = await lookupReleases(ctx.db, new Map([[serviceId, releaseSourceOf(service)]]), wanted);

  const releases: ReleaseLine[] = versions
    .slice(-MAX_RELEASES)
    .reverse()
    .map((version) => {
      const info = notes(serviceId, version);
      return {
        version,
        published_at: info.published_at?.toISOString() ?? null,
        first_seen: upstream?.firstSeen.get(version)?.toISOString() ?? null,
        release_notes_url: info.release_notes_url,
        running_in: [...new Set(runningVersions.filter((r) => r.version === version).map((r) => r.env))],
      };
    });

  return {
    service,
    environments: matrix.environments,
    row,
    upstream: {
      newest,
      newest_notes_url: newest ? notes(serviceId, newest).release_notes_url : null,
      last_error: upstream?.lastError ?? service.last_check.error,
      tags: upstream?.tags.length ?? 0,
    },
    oldest_running: oldest,
    releases,
    history: history.items,
    drifts: drifts.items,
    acks: acks.items,
    badges: row ? badgeViews(row, drifts.items.flatMap((d) => (d.state === "resolved" ? [] : [{ environment: d.environment, kind: d.kind, state: d.state }])), matrix.environments, ctx.now) : [],
  };
}
