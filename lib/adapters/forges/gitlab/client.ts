// GitLab releases: GET {base}/api/v4/projects/{url-encoded path}/releases,
// paged by Link or x-next-page. Only gitlab.com and the one configured
// self-hosted instance are called; the token goes to the configured one only.
import { AppError } from "@/lib/domain/errors";
import {
  PUBLIC_GITLAB_HOST,
  checkForgeReference,
  configuredGitlabHost,
  splitGitlabReference,
} from "@/lib/domain/forge-hosts";
import {
  assertSameOrigin,
  fetchSameOrigin,
  nextLink,
  readJson,
  retryAfterSeconds,
  type FetchLike,
} from "../same-origin-fetch";
import { DEFAULT_MAX_PAGES, toUtc, type ForgeRelease, type ListReleasesResult } from "../types";
import { gitlabReleasesPageSchema, type GitlabRelease } from "./schema";

const SERVICE = "GitLab";
const ERROR = "forge_unavailable" as const;

export type GitlabClientOptions = {
  /** DRIFTWATCH_GITLAB_URL: the one self-hosted instance (may carry a path prefix). */
  gitlabUrl?: string | undefined;
  /** DRIFTWATCH_GITLAB_TOKEN: sent to the configured instance only. */
  gitlabToken?: string | undefined;
  /** Where gitlab.com's API is reached; a loopback server in tests. */
  gitlabComUrl?: string | undefined;
  fetch?: FetchLike | undefined;
  timeoutMs?: number | undefined;
  maxPages?: number | undefined;
  now?: (() => number) | undefined;
};

const PRERELEASE_TAG = /(?:^|[-._+])(?:alpha|beta|rc|pre|preview|dev)(?:[-._]?\d+)?(?:$|[-._+])/i;

/** Pure: a GitLab release as a ForgeRelease; upcoming (not yet released) ones give null. */
export function toForgeRelease(release: GitlabRelease, fallbackUrl: string): ForgeRelease | null {
  if (release.upcoming_release) return null;
  return {
    tag: release.tag_name,
    name: release.name ?? null,
    publishedAt: toUtc(release.released_at ?? release.created_at),
    url: release._links?.self ?? fallbackUrl,
    // GitLab has no prerelease flag; the tag says it.
    prerelease: PRERELEASE_TAG.test(release.tag_name),
  };
}

type Target = { base: string; origin: string; project: string; token: string | undefined };

export class GitlabReleasesClient {
  constructor(private readonly opts: GitlabClientOptions) {}

  /** Where a `host/group/project` reference is read from, or a refusal before any request. */
  private targetFor(reference: string): Target {
    const check = checkForgeReference("gitlab", reference, { gitlabUrl: this.opts.gitlabUrl });
    if (!check.ok) throw new AppError("invalid_input", check.error, { errors: [{ pointer: "/policy/gitlab", detail: check.error }] });
    const { host, project } = splitGitlabReference(check.repository);
    const configured = configuredGitlabHost(this.opts.gitlabUrl);
    if (configured && host === configured && this.opts.gitlabUrl) {
      const base = this.opts.gitlabUrl.replace(/\/+$/, "");
      return { base, origin: new URL(base).origin, project, token: this.opts.gitlabToken };
    }
    if (host === PUBLIC_GITLAB_HOST) {
      const base = (this.opts.gitlabComUrl ?? "https://gitlab.com").replace(/\/+$/, "");
      return { base, origin: new URL(base).origin, project, token: undefined };
    }
    throw new AppError("invalid_input", `GitLab host ${host} is not allowed.`);
  }

  async listReleases(reference: string, etag?: string | null): Promise<ListReleasesResult> {
    const target = this.targetFor(reference);
    const first = `${target.base}/api/v4/projects/${encodeURIComponent(target.project)}/releases?per_page=100`;
    let url: string | null = first;
    const releases: ForgeRelease[] = [];
    let firstEtag: string | null = null;

    for (let page = 0; url && page < (this.opts.maxPages ?? DEFAULT_MAX_PAGES); page++) {
      const { response, url: finalUrl } = await fetchSameOrigin({
        url,
        allowedOrigin: target.origin,
        headers: {
          accept: "application/json",
          "user-agent": "driftwatch",
          ...(target.token ? { "private-token": target.token } : {}),
          ...(page === 0 && etag ? { "if-none-match": etag } : {}),
        },
        fetch: this.opts.fetch,
        timeoutMs: this.opts.timeoutMs,
        errorCode: ERROR,
        service: SERVICE,
      });
      if (response.status === 304 && page === 0 && etag) {
        await response.body?.cancel();
        return { notModified: true };
      }
      if (response.status !== 200) await this.throwFor(response, reference, target);

      const parsed = gitlabReleasesPageSchema.safeParse(await readJson(response, ERROR, SERVICE));
      if (!parsed.success) throw new AppError(ERROR, "GitLab answered with an unexpected releases list.", { cause: parsed.error });
      for (const release of parsed.data) {
        const fallback = `${target.base}/${target.project}/-/releases/${encodeURIComponent(release.tag_name)}`;
        const mapped = toForgeRelease(release, fallback);
        if (mapped) releases.push(mapped);
      }
      if (page === 0) firstEtag = response.headers.get("etag");
      url = this.nextPage(response, finalUrl, target);
    }
    return { notModified: false, etag: firstEtag, releases };
  }

  private nextPage(response: Response, current: string, target: Target): string | null {
    const linked = nextLink(response.headers.get("link"), current);
    if (linked) return assertSameOrigin(linked, target.origin, ERROR, SERVICE).toString();
    const nextPage = response.headers.get("x-next-page")?.trim();
    if (!nextPage || !/^\d+$/.test(nextPage)) return null;
    const next = new URL(current);
    next.searchParams.set("page", nextPage);
    return next.toString();
  }

  private async throwFor(response: Response, reference: string, target: Target): Promise<never> {
    await response.body?.cancel();
    const { status } = response;
    if (status === 404) throw new AppError("not_found", `GitLab project ${reference} was not found.`);
    if (status === 401 || status === 403) {
      const hint = target.token ? "the token has no access to it" : "a private project needs DRIFTWATCH_GITLAB_TOKEN on the configured instance";
      throw new AppError(ERROR, `GitLab refused access to ${reference} (${status}); ${hint}.`);
    }
    if (status === 429) {
      const wait = retryAfterSeconds(response.headers.get("retry-after"), (this.opts.now ?? Date.now)()) ?? 60;
      throw new AppError("rate_limited", `GitLab is rate limiting requests; retry in ${wait} s.`, { retryAfterSeconds: wait });
    }
    throw new AppError(ERROR, `GitLab answered ${status} for the releases of ${reference}.`);
  }
}
