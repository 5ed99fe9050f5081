// Release dates and notes for (service, version) pairs: the forge release the
// version was published as, else the policy's `changelog` template, else
// nothing. Only the candidate release tags of the versions asked for are read.
import { listForgeRepositories } from "@/lib/db/queries/releases/list-forge-repositories";
import { listReleasesByTag } from "@/lib/db/queries/releases/list-releases-by-tag";
import { changelogUrl, releaseForVersion, releaseTagCandidates, type ForgeRelease } from "@/lib/adapters/forges";
import type { Db } from "@/lib/db/client";
import type { ReleaseInfo } from "@/lib/domain/insights";

export type ReleaseSource = {
  forge: { kind: "github" | "gitlab"; repository: string } | null;
  tagPrefix: string | null;
  changelog: string | null;
  /** A classic chart repository: its versions were stored first seen at index.yaml's `created`, their publication. */
  datedByIndex?: boolean;
};

export type ReleaseLookup = (serviceId: string, version: string) => ReleaseInfo;

export const NO_RELEASE_INFO: ReleaseInfo = { published_at: null, release_notes_url: null };

const pairKey = (serviceId: string, version: string) => `${serviceId}\n${version}`;
const forgeKey = (forge: { kind: string; repository: string }) => `${forge.kind}\n${forge.repository}`;

export async function lookupReleases(
  db: Db,
  sources: ReadonlyMap<string, ReleaseSource>,
  wanted: readonly { serviceId: string; version: string }[],
): Promise<ReleaseLookup> {
  const forges = new Map<string, { kind: string; repository: string }>();
  for (const { serviceId } of wanted) {
    const forge = sources.get(serviceId)?.forge;
    if (forge) forges.set(forgeKey(forge), forge);
  }
  const releasesByForge = await loadCandidateReleases(db, forges, sources, wanted);

  const out = new Map<string, ReleaseInfo>();
  for (const { serviceId, version } of wanted) {
    const key = pairKey(serviceId, version);
    if (out.has(key)) continue;
    const source = sources.get(serviceId);
    if (source === undefined) continue;
    const releases = source.forge ? releasesByForge.get(forgeKey(source.forge)) : undefined;
    const release = releases ? releaseForVersion(version, releases, { prefix: source.tagPrefix }) : null;
    out.set(key, {
      published_at: release?.publishedAt ? new Date(release.publishedAt) : null,
      release_notes_url: release?.url ?? (source.changelog === null ? null : changelogUrl(source.changelog, version)),
    });
  }
  return (serviceId, version) => out.get(pairKey(serviceId, version)) ?? NO_RELEASE_INFO;
}

/** Releases whose tag (case-insensitively) is a candidate of a wanted version, by forge repository. */
async function loadCandidateReleases(
  db: Db,
  forges: ReadonlyMap<string, { kind: string; repository: string }>,
  sources: ReadonlyMap<string, ReleaseSource>,
  wanted: readonly { serviceId: string; version: string }[],
): Promise<Map<string, ForgeRelease[]>> {
  if (forges.size === 0) return new Map();
  const list = [...forges.values()];
  const repos = await listForgeRepositories(db, list);
  if (repos.length === 0) return new Map();
  const idByForge = new Map(repos.map((r) => [forgeKey({ kind: r.kind, repository: r.name }), r.id] as const));

  const pairs = new Set<string>();
  for (const { serviceId, version } of wanted) {
    const source = sources.get(serviceId);
    const id = source?.forge ? idByForge.get(forgeKey(source.forge)) : undefined;
    if (id === undefined || source === undefined) continue;
    for (const tag of releaseTagCandidates(version, source.tagPrefix)) pairs.add(`${id}\n${tag.toLowerCase()}`);
  }
  const ids: string[] = [];
  const tags: string[] = [];
  for (const pair of pairs) {
    const [id, tag] = pair.split("\n") as [string, string];
    ids.push(id);
    tags.push(tag);
  }
  const rows = await listReleasesByTag(db, ids, tags);
  const forgeById = new Map(repos.map((r) => [r.id, forgeKey({ kind: r.kind, repository: r.name })] as const));
  const out = new Map<string, ForgeRelease[]>();
  for (const row of rows) {
    const key = forgeById.get(row.forge_repository_id);
    if (key === undefined) continue;
    const release: ForgeRelease = { tag: row.tag, name: row.name, publishedAt: row.published_at?.toISOString() ?? null, url: row.url, prerelease: row.prerelease };
    const list = out.get(key);
    if (list === undefined) out.set(key, [release]);
    else list.push(release);
  }
  return out;
}
