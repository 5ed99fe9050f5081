// Release dates and notes from the forges, for the repositories services run:
// the forge repository comes from the service's policy, else the catalog, else
// the image's source label (official images skipped). Requests are
// conditional (ETag) and only go to GitHub's API, gitlab.com and the one
// configured GitLab; anything else was refused when the policy was saved and
// is refused again by the forge clients before any request.
import type { Prisma } from "@/lib/db/client";
import { policiesOfRepository } from "@/lib/db/queries/services/list-policies-of-repository";
import { ensureForgeRepository } from "@/lib/db/queries/releases/ensure-forge-repository";
import { recordForgeError } from "@/lib/db/queries/releases/record-forge-error";
import { recordForgeFetch } from "@/lib/db/queries/releases/record-forge-fetch";
import { replaceReleases } from "@/lib/db/queries/releases/replace-releases";
import { forgeFromSourceLabel } from "@/lib/domain/forge-hosts";
import type { Policy } from "@/lib/domain/policy";
import { catalogFor } from "../services/catalog-lookup";
import type { CheckDeps } from "./ports";

const REFRESH_MS = 3_600_000;

export type ForgeRef = { kind: "github" | "gitlab"; repository: string };

/** Where a service's release notes live, first match wins. */
export function releaseSourceOf(repositoryKey: string, policy: Policy | null, sourceLabel: string | null, gitlabUrl?: string): ForgeRef | null {
  if (policy?.github) return { kind: "github", repository: policy.github };
  if (policy?.gitlab) return { kind: "gitlab", repository: policy.gitlab };
  const catalog = catalogFor(repositoryKey);
  if (catalog?.github) return { kind: "github", repository: catalog.github };
  if (catalog?.gitlab) return { kind: "gitlab", repository: catalog.gitlab };
  if (sourceLabel && !repositoryKey.startsWith("docker.io/library/")) return forgeFromSourceLabel(sourceLabel, { gitlabUrl });
  return null;
}

/** Forge repositories of every service (any workspace) that tracks this upstream repository. */
async function forgeRefsFor(deps: CheckDeps, repositoryKey: string, sourceLabel: string | null, policies?: readonly (Policy | null)[]): Promise<ForgeRef[]> {
  const refs = new Map<string, ForgeRef>();
  for (const policy of policies ?? ((await policiesOfRepository(deps.db, repositoryKey)) as (Policy | null)[])) {
    const ref = releaseSourceOf(repositoryKey, policy, sourceLabel, deps.config.gitlabUrl);
    if (ref) refs.set(`${ref.kind}:${ref.repository}`, ref);
  }
  return [...refs.values()];
}

/** `policies`: those of the services tracking the repository, when the caller has read them already. */
export async function syncReleasesFor(deps: CheckDeps, repositoryKey: string, sourceLabel: string | null, opts: { force?: boolean; policies?: readonly (Policy | null)[] } = {}): Promise<number> {
  const now = deps.now;
  let fetched = 0;
  for (const ref of await forgeRefsFor(deps, repositoryKey, sourceLabel, opts.policies)) {
    const row = await ensureForgeRepository(deps.db, ref.kind, ref.repository);
    if (!opts.force && row.fetchedAt && now.getTime() - row.fetchedAt.getTime() < REFRESH_MS) continue;
    try {
      const result = await deps.clients.forges.listReleases({ kind: ref.kind, repository: ref.repository, etag: row.etag });
      fetched++;
      if (result.notModified) {
        await recordForgeFetch(deps.db, row.id, now);
        continue;
      }
      await deps.db.$transaction(async (tx: Prisma.TransactionClient) => {
        await replaceReleases(tx, row.id, result.releases.map((r) => ({
          tag: r.tag, name: r.name, url: r.url, prerelease: r.prerelease,
          publishedAt: r.publishedAt ? new Date(r.publishedAt) : null,
        })));
        await recordForgeFetch(tx, row.id, now, result.etag);
      });
    } catch (err) {
      await recordForgeError(deps.db, row.id, now, (err as Error).message);
    }
  }
  return fetched;
}
